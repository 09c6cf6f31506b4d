import { openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../src/binding/app.ts"
import { bearerTokens } from "../src/binding/bearer-tokens.ts"
import { expectPageHeaders, formField } from "./support/hosted-page-html.ts"
import { startTestService, type TestService, testJwtSecret } from "./support/test-service.ts"

/**
 * The app mounted under a path of a host server (`createApp({ mountPath })`), over HTTP on a real
 * socket: the host takes the path off the URL, and every URL the app answers with has it back, so
 * that a client following them stays under the mount.
 */
const sqlite = openTestSqlite()
const mountPath = "/payments"
let service: TestService
let token: string

beforeAll(async () => {
  service = await startTestService({ storage: await sqlite.factory(), sandbox: true, mountPath })
  token = await service.signIn("mounted")
})
afterAll(async () => {
  await service.close()
  await sqlite.close()
})

const get = (path: string, headers: Record<string, string> = {}) =>
  service.request("GET", path, { token, headers: { Accept: "application/json", ...headers } })

describe("an app mounted at /payments", () => {
  it("gives paging links under the mount, which lead from the first page to the last", async () => {
    for (const name of ["Alpha", "Beta", "Gamma"]) {
      const created = await service.request("POST", `${mountPath}/api/v1/companies`, {
        token,
        body: { name, country: "US", default_currency: "USD" },
      })
      expect(created.status, created.text).toBe(201)
    }
    const names: Array<string> = []
    let next: string | null = `${mountPath}/api/v1/companies?per_page=1`
    while (next !== null && names.length < 4) {
      const page = await get(next)
      expect(page.status, page.text).toBe(200)
      for (const link of [page.body.links.first, page.body.links.last]) expect(link).toMatch(/^\/payments\/api\/v1\//)
      names.push(...page.body.data.map((company: { name: string }) => company.name))
      next = page.body.links.next
    }
    expect(names.sort()).toEqual(["Alpha", "Beta", "Gamma"])
  })

  it("links GET / and the API reference to paths under the mount, each of which answers", async () => {
    const home = await get(`${mountPath}/`)
    expect(home.body.links).toEqual({
      docs: "/payments/docs",
      openapi: "/payments/openapi.json",
      health: "/payments/health",
    })
    for (const link of Object.values<string>(home.body.links)) expect((await get(link)).status, link).toBe(200)
    const homePage = await get(`${mountPath}/`, { Accept: "text/html" })
    expect(homePage.text).toContain('href="/payments/docs"')

    const docs = await get(`${mountPath}/docs`, { Accept: "text/html" })
    const files = [...docs.text.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1]!)
    expect(files).toEqual([
      "/payments/docs/swagger-ui.css",
      "/payments/openapi.json",
      "/payments/docs/swagger-ui-bundle.js",
      "/payments/docs/start.js",
    ])
    for (const file of files) expect((await get(file)).status, file).toBe(200)
    expect((await get(`${mountPath}/docs/start.js`)).text).toContain('url: "/payments/openapi.json"')
  })

  it("names the mount as the OpenAPI document's server, so its paths resolve under it", async () => {
    const document = await get(`${mountPath}/openapi.json`)
    expect(document.body.servers).toEqual([{ url: "/payments" }])
    expect(Object.keys(document.body.paths)).toContain("/api/v1/companies")
  })

  it("serves the hosted pages under the mount, their stylesheet, forms and redirects included", async () => {
    const company = await service.request("POST", `${mountPath}/api/v1/companies`, {
      token,
      body: { name: "Hosted Inc", country: "US", default_currency: "USD" },
    })
    const cid = company.body.data.id as string
    const entity = await service.request("POST", `${mountPath}/api/v1/companies/${cid}/entities`, {
      token,
      body: { name: "Hosted Inc", country_alpha2: "US" },
    })
    const eid = entity.body.data.id as string
    const feature = await service.request("POST", `${mountPath}/api/v1/companies/${cid}/entities/${eid}/features`, {
      token,
      body: { feature_identifier: "multi_currency_account" },
    })
    expect(feature.status, feature.text).toBe(201)
    const issued = await service.request("POST", `${mountPath}/api/v1/hosted_page_tokens`, {
      token,
      body: { purpose: "funding_accounts", entity_id: eid },
    })
    expect(issued.status, issued.text).toBe(201)
    const hosted = issued.body.data.token as string

    const page = await service.request("GET", `${mountPath}/funding-accounts?token=${hosted}`)
    expect(page.status, page.text).toBe(200)
    expectPageHeaders(page)
    expect(page.text).toContain('href="/payments/hosted.css"')
    expect((await service.request("GET", `${mountPath}/hosted.css`)).status).toBe(200)
    const actions = [...page.text.matchAll(/action="([^"]+)"/g)].map((match) => match[1]!)
    expect(actions.length).toBeGreaterThan(0)
    for (const action of actions) expect(action).toMatch(/^\/payments\/funding-accounts\//)

    const done = await service.request("POST", `${mountPath}/funding-accounts/done`, {
      raw: new URLSearchParams({
        token: hosted,
        // Done is a button of the page's one form, whose action is the link
        csrf: formField(page.text, "/funding-accounts/link", "csrf") ?? "",
      }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    })
    expect(done.status, done.text).toBe(303)
    expect(done.headers.get("location")).toMatch(/^\/payments\/funding-accounts\/done\?/)
    expect((await service.request("GET", done.headers.get("location")!)).status).toBe(200)
  })
})

describe("createApp's mountPath", () => {
  const engine = () => service.engine
  const tokens = bearerTokens({ secret: testJwtSecret, confirm: (claims) => engine().access.tokenActor(claims) })

  it("refuses a path that is not one", () => {
    for (const mountPath of ["payments", "/payments/", "/", "/pay?x=1", "/pay ments"]) {
      expect(() => createApp({ engine: engine(), tokens, mountPath }), mountPath).toThrow(
        /mountPath must be "" or a path such as "\/payments"/,
      )
    }
  })

  it("refuses hosted pages outside the mount, since the mounted app serves them", () => {
    expect(() => createApp({ engine: engine(), tokens, mountPath, hostedUrl: "https://pay.example/hosted" })).toThrow(
      /the path of hostedUrl \("\/hosted"\) must start with mountPath/,
    )
    expect(() =>
      createApp({ engine: engine(), tokens, mountPath, hostedUrl: "https://pay.example/payments/hosted/" }),
    ).not.toThrow()
  })
})
