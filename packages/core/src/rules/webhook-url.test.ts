import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { webhookUrlMessages as m, webhookUrlProblem } from "./webhook-url.ts"

const production = { allowLocalHttp: false }
const sandbox = { allowLocalHttp: true }

describe("webhookUrlProblem", () => {
  it("allows absolute https URLs, in both modes", () => {
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ["https"], withQueryParameters: true }), (url) => {
        fc.pre(!new URL(url).username && !new URL(url).password)
        expect(webhookUrlProblem(url, production)).toBeUndefined()
        expect(webhookUrlProblem(url, sandbox)).toBeUndefined()
      }),
    )
  })

  it("refuses http except to localhost and 127.0.0.1 in sandbox mode", () => {
    for (const url of ["http://localhost/hooks", "http://localhost:3000", "http://127.0.0.1:9/x"]) {
      expect(webhookUrlProblem(url, sandbox)).toBeUndefined()
      expect(webhookUrlProblem(url, production)).toBe(m.https)
    }
    for (const url of ["http://example.com", "http://10.0.0.1", "http://[::1]/", "http://localhost.evil.test/"]) {
      expect(webhookUrlProblem(url, sandbox)).toBe(m.https)
    }
  })

  it("names what is wrong with the text", () => {
    expect(webhookUrlProblem("", production)).toBe(m.required)
    expect(webhookUrlProblem("example.com/hooks", production)).toBe(m.malformed)
    expect(webhookUrlProblem(" https://example.com", production)).toBe(m.malformed)
    expect(webhookUrlProblem("https://exa\tmple.com", production)).toBe(m.malformed)
    expect(webhookUrlProblem("ftp://example.com", production)).toBe(m.https)
    expect(webhookUrlProblem("https://a:b@example.com", production)).toBe(m.credentials)
    expect(webhookUrlProblem(`https://example.com/${"x".repeat(2048)}`, production)).toBe(m.tooLong)
  })

  it("never throws, whatever the text", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const problem = webhookUrlProblem(text, sandbox)
        expect(problem === undefined || Object.values(m).includes(problem as never)).toBe(true)
      }),
    )
  })
})
