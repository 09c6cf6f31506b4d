import { createHash } from "node:crypto"
import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signedInEntity } from "./support/entity-client.ts"
import { errorOf, visibleText } from "./support/hosted-page-html.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

/**
 * The workspace's branding over HTTP on a real socket, on SQLite and Postgres: set and read
 * through `/api/v1/workspace/branding`, refused by field when hostile, and shown, escaped and
 * allowed by the policy, on the hosted pages of that workspace only.
 */
const sqlite = openTestSqlite()
const postgres = openTestPostgres()
afterAll(async () => {
  await sqlite.close()
  await postgres.close()
})

describe.each([
  ["SQLite", () => sqlite.factory()],
  ["Postgres", () => postgres.factory()],
])("the workspace branding on %s", (_name, factory) => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService({ storage: await factory(), sandbox: true })
  })
  afterAll(async () => {
    await service.close()
  })

  const branding = (token: string, body?: unknown) =>
    service.request(body === undefined ? "GET" : "PATCH", "/api/v1/workspace/branding", {
      token,
      ...(body === undefined ? {} : { body }),
    })

  /** A recipient's bank-account link of a new workspace, the simplest hosted page to open. */
  const hostedLink = async (workspace: string) => {
    const { token, cid, eid } = await signedInEntity(service, workspace)
    const recipient = await service.request("POST", `/api/v1/companies/${cid}/recipients`, {
      token,
      body: { name: "Jane Supplier" },
    })
    const issued = await service.request("POST", `/api/v1/companies/${cid}/entities/${eid}/hosted_page_tokens`, {
      token,
      body: { purpose: "recipient_add_bank_account", recipient_id: recipient.body.data.id },
    })
    expect(issued.status, issued.text).toBe(201)
    return { token, open: () => service.request("GET", `/recipient/add-bank-account?token=${issued.body.data.token}`) }
  }

  it("is null until set, changes field by field (null removes), and stays in its workspace", async () => {
    const token = await service.signIn("branding-api")
    const other = await service.signIn("branding-api-other")
    const empty = await branding(token)
    expect(empty.status, empty.text).toBe(200)
    expect(empty.body.data).toEqual({ display_name: null, logo_url: null, accent_color: null })
    const set = await branding(token, {
      display_name: "  Initech Payments ",
      logo_url: "https://cdn.initech.example/logo.png",
      accent_color: "#0B5FFF",
    })
    expect(set.status, set.text).toBe(200)
    expect(set.body.data).toEqual({
      display_name: "Initech Payments",
      logo_url: "https://cdn.initech.example/logo.png",
      accent_color: "#0b5fff",
    })
    const changed = await branding(token, { logo_url: null })
    expect(changed.body.data).toEqual({ display_name: "Initech Payments", logo_url: null, accent_color: "#0b5fff" })
    expect((await branding(token)).body.data).toEqual(changed.body.data)
    expect((await branding(other)).body.data).toEqual({ display_name: null, logo_url: null, accent_color: null })
  })

  it("refuses a logo that is not https, a colour that is not #rrggbb and a blank name, by field, changing nothing", async () => {
    const token = await service.signIn("branding-hostile")
    expect((await branding(token, { display_name: "Kept" })).status).toBe(200)
    for (const logo of ["http://cdn.example/logo.png", "javascript:alert(1)", "data:image/png;base64,AAAA", "//x"]) {
      const refused = await branding(token, { logo_url: logo })
      expect(refused.status, logo).toBe(422)
      expect(refused.body.errors).toEqual([{ field: "logo_url", message: "must be an https URL" }])
    }
    for (const colour of ["red", "#fff", "#0b5fff;}body{display:none", "url(x)"]) {
      const refused = await branding(token, { accent_color: colour })
      expect(refused.status, colour).toBe(422)
      expect(refused.body.errors).toEqual([
        { field: "accent_color", message: "must be a colour as #rrggbb, for example #0b5fff" },
      ])
    }
    const blank = await branding(token, { display_name: "  ", accent_color: "nope" })
    expect(blank.status).toBe(422)
    expect(blank.body.errors.map((error: { field: string }) => error.field).toSorted()).toEqual([
      "accent_color",
      "display_name",
    ])
    expect((await branding(token)).body.data).toEqual({ display_name: "Kept", logo_url: null, accent_color: null })
  })

  it("shows on the workspace's hosted pages: the name escaped, the logo and colour allowed by the page's policy alone", async () => {
    const hostile = `<script>alert("x")</script>Initech`
    const { token, open } = await hostedLink("branding-pages")
    const plain = await open()
    expect(plain.text).not.toContain('class="brand"')
    expect(plain.headers.get("content-security-policy")).toContain("style-src 'self';")
    expect(
      (
        await branding(token, {
          display_name: hostile,
          logo_url: "https://cdn.initech.example/logo.png",
          accent_color: "#0b5fff",
        })
      ).status,
    ).toBe(200)
    const page = await open()
    expect(page.status).toBe(200)
    expect(page.text).not.toContain("<script>alert")
    expect(page.text).toContain("&lt;script>alert(&quot;x&quot;)&lt;/script>Initech")
    expect(visibleText(page.text).startsWith(`${hostile} Add a bank account`)).toBe(true)
    expect(page.text).toContain('<img src="https://cdn.initech.example/logo.png" alt/>')
    expect(page.text).toContain("<style>:root{--accent:#0b5fff}</style>")
    const hash = createHash("sha256").update(":root{--accent:#0b5fff}").digest("base64")
    expect(page.headers.get("content-security-policy")).toBe(
      `default-src 'none'; style-src 'self' 'sha256-${hash}'; img-src https://cdn.initech.example; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    )
    // Another workspace's page shows none of it.
    const other = await hostedLink("branding-pages-other")
    const theirs = await other.open()
    expect(theirs.text).not.toContain("Initech")
    expect(theirs.text).not.toContain("cdn.initech.example")
    expect(errorOf(theirs.text, "none")).toBeUndefined()
  })
})
