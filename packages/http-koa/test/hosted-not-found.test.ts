import { openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectPageHeaders, visibleText } from "./support/hosted-page-html.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

/*
 * A path under the hosted pages that no page serves is answered as a page: an HTML 404 with the
 * pages' security headers (no script, no framing, no referrer, no caching), never the API's JSON,
 * whether the pages share the root with the API or have a path of their own. The API's own
 * unknown paths keep their JSON 404.
 */
const sqlite = openTestSqlite()
afterAll(sqlite.close)

const expectHostedNotFound = async (service: TestService, method: string, path: string) => {
  const answer = await service.request(method, path)
  expect({ path, method, status: answer.status, type: answer.headers.get("content-type") }).toEqual({
    path,
    method,
    status: 404,
    type: "text/html; charset=utf-8",
  })
  expectPageHeaders(answer)
  expect(answer.text).toMatch(/^<!DOCTYPE html>/i)
  expect(() => JSON.parse(answer.text)).toThrow()
  expect(visibleText(answer.text)).toContain("This page does not exist")
}

describe("hosted pages at the root, beside the API", () => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService({ storage: await sqlite.factory() })
  })
  afterAll(() => service.close())

  it("answer a path under a page that none serves with an HTML 404 and the pages' headers", async () => {
    for (const path of [
      "/funding-accounts/nope",
      "/funding-accounts/link/extra",
      "/recipient/add-bank-account/unknown",
      "/recipient/nope",
      "/entity-feature/persons/nope",
      "/hosted.css/x",
    ]) {
      await expectHostedNotFound(service, "GET", path)
    }
    // A page's path with a method it does not take.
    await expectHostedNotFound(service, "GET", "/funding-accounts/link")
    await expectHostedNotFound(service, "POST", "/recipient/add-bank-account")
  })

  it("leave the API's unknown paths, and paths outside any page, to the JSON 404", async () => {
    for (const path of ["/nope", "/recipients/x", "/funding-accountsx"]) {
      const answer = await service.request("GET", path)
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 404,
        body: { errors: [{ field: "path", message: "Not found" }] },
      })
    }
  })
})

describe("hosted pages under a path of their own", () => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService({ storage: await sqlite.factory(), hostedUrl: "http://localhost/pay" })
  })
  afterAll(() => service.close())

  it("answer every path under it that no page serves with an HTML 404 and the pages' headers", async () => {
    for (const path of ["/pay", "/pay/", "/pay/nope", "/pay/funding-accounts/nope", "/pay/a/b/c"]) {
      await expectHostedNotFound(service, "GET", path)
    }
    expect((await service.request("GET", "/funding-accounts/nope")).body).toEqual({
      errors: [{ field: "path", message: "Not found" }],
    })
  })
})
