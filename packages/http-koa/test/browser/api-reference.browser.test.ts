import { openTestSqlite } from "@payments-engine/adapters/testing"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium } from "../support/browser.ts"
import { startTestService, type TestService } from "../support/test-service.ts"

/**
 * The API reference at `/docs` in real Chromium, with every request that would leave the
 * service refused: it renders the service's own OpenAPI document from files the service serves.
 */
const sqlite = openTestSqlite()
let service: TestService
let browser: Browser
beforeAll(async () => {
  service = await startTestService({ storage: await sqlite.factory() })
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  await service?.close()
  await sqlite.close()
})

describe("the API reference", () => {
  it("renders every tag of the OpenAPI document offline, reached from GET /", async () => {
    const context = await browser.newContext()
    const elsewhere: Array<string> = []
    await context.route("**/*", (route) => {
      const url = new URL(route.request().url())
      if (url.origin === service.url) return route.continue()
      elsewhere.push(url.href)
      return route.abort("internetdisconnected")
    })
    const page = await context.newPage()
    const errors: Array<string> = []
    page.on("pageerror", (error) => errors.push(error.message))
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text())
    })

    await page.goto(`${service.url}/`)
    await page.getByRole("link", { name: "API reference" }).click()
    await page.waitForURL(`${service.url}/docs`)
    await expect.poll(() => page.locator(".opblock-tag").count(), { timeout: 15_000 }).toBeGreaterThan(5)
    const document = (await service.request("GET", "/openapi.json")).body as {
      paths: Record<string, Record<string, { tags?: Array<string> }>>
    }
    const tags = new Set(
      Object.values(document.paths).flatMap((path) => Object.values(path).flatMap((op) => op.tags ?? [])),
    )
    for (const tag of tags) expect(await page.locator(`.opblock-tag[data-tag="${tag}"]`).count(), tag).toBe(1)
    expect(await page.getByText("/api/v1/hosted_page_tokens", { exact: true }).count()).toBeGreaterThan(0)
    expect(elsewhere).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it("authorizes Try it out with an API key and secret, says why when they are wrong, and shows examples", async () => {
    const key = await service.engine.access.createApiKey({ workspace: "reference", scope: "write" })
    const page = await browser.newPage()
    await page.goto(`${service.url}/docs#/Companies/listCompanies`)
    const operation = page.locator("#operations-Companies-listCompanies")
    // Swagger UI takes seconds to render the whole document on a busy machine.
    await operation.waitFor({ timeout: 60_000 })
    const form = page.locator("form#authorize")

    await form.getByLabel("API key").fill(key.api_key)
    await form.getByLabel("API secret").fill(`${key.api_secret}x`)
    await form.getByRole("button", { name: "Authorize" }).click()
    await expect.poll(() => form.getByRole("status").textContent()).toMatch(/^Not authorized \(401\): api_key: /)

    await form.getByLabel("API secret").fill(key.api_secret)
    await form.getByRole("button", { name: "Authorize" }).click()
    await expect.poll(() => form.getByRole("status").textContent()).toContain(`Authorized as ${key.api_key} until`)
    expect(await form.getByLabel("API secret").inputValue()).toBe("")

    // Swagger UI sends the token: the list answers 200 where it answered 401 without one.
    await operation.getByRole("button", { name: "Try it out" }).click()
    await operation.getByRole("button", { name: "Execute" }).click()
    const status = operation.locator(".live-responses-table .response .response-col_status")
    await expect.poll(() => status.first().textContent(), { timeout: 15_000 }).toBe("200")

    // Each request and answer shows an example of what is sent and answered, not "string".
    const create = page.locator("#operations-Companies-createCompany")
    await create.locator(".opblock-summary").click()
    await expect.poll(() => create.locator(".body-param__example").textContent()).toContain('"name": "Acme Inc"')
    expect(await create.locator(".responses-table").first().textContent()).toContain('"default_currency": "USD"')
    await page.close()
  }, 120_000)

  it("answers GET / with links, as HTML to a browser and as JSON to a client asking for it", async () => {
    const asJson = await service.request("GET", "/", { headers: { Accept: "application/json" } })
    expect(asJson.status).toBe(200)
    expect(asJson.body).toEqual({ links: { docs: "/docs", openapi: "/openapi.json", health: "/health" } })
    const asHtml = await service.request("GET", "/", { headers: { Accept: "text/html" } })
    expect(asHtml.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(asHtml.text).toContain('<a href="/docs">API reference</a>')
    const docs = await service.request("GET", "/docs")
    expect(docs.headers.get("content-security-policy")).toContain("script-src 'self';")
    expect(docs.text).not.toMatch(/<script>|https?:\/\//)
  })
})
