import { expect } from "vitest"
import type { TestResponse } from "./test-service.ts"

/**
 * Reading a hosted page's answer over plain HTTP as a person would: its headers, the text shown,
 * a form's fields and the error under a field. The HTML is read loosely, by the shapes the
 * hosted views render; the browser tests read the same pages through Chromium.
 */

/** The headers every hosted answer carries; `formAction` is the CSP's form-action sources. */
export const expectPageHeaders = (response: TestResponse, formAction = "'self'") => {
  expect(response.headers.get("content-security-policy")).toBe(
    `default-src 'none'; style-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  )
  expect(response.headers.get("x-frame-options")).toBe("DENY")
  expect(response.headers.get("referrer-policy")).toBe("no-referrer")
  expect(response.headers.get("x-content-type-options")).toBe("nosniff")
  expect(response.headers.get("cache-control")).toBe("no-store")
}

const decodeEntities = (text: string) =>
  text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")

/** The text a person reads: tags dropped, entities decoded, spaces collapsed. */
export const visibleText = (html: string) =>
  decodeEntities(html.replace(/<head>[\s\S]*?<\/head>/, "").replace(/<[^>]+>/g, " "))
    .replace(/\s+/g, " ")
    .trim()

/** The value of the hidden or text input `name` of the first form whose action ends with `action`. */
export const formField = (html: string, action: string, name: string): string | undefined => {
  const form = [...html.matchAll(/<form\b[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)].find((m) =>
    (m[1] ?? "").endsWith(action),
  )
  const attributes = `(?:[^>"]|"[^"]*")*`
  const input = form?.[2]?.match(new RegExp(`<input\\b${attributes}name="${name}"${attributes}>`))?.[0]
  const value = input?.match(/value="([^"]*)"/)?.[1]
  return value === undefined ? undefined : decodeEntities(value)
}

/** The error shown under field `id`, if any. */
export const errorOf = (html: string, id: string) => {
  const match = html.match(new RegExp(`<p class="error" id="${id}-error">([^<]*)</p>`))
  return match?.[1] === undefined ? undefined : decodeEntities(match[1])
}
