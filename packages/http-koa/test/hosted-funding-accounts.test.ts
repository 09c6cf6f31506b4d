import type { KyselyStorage } from "@payments-engine/adapters/kysely"
import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { errorOf, expectPageHeaders, formField, visibleText } from "./support/hosted-page-html.ts"
import { createQuote, paymentBody, setUpPayer } from "./support/payment-fixtures.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

/**
 * The hosted funding-accounts page over HTTP on a real socket, on SQLite and Postgres, read as a
 * person sees it (the HTML parsed loosely): its headers on every answer, the 401 page for every
 * refused token, the CSRF check of every form, linking with errors next to their fields, the
 * accounts then visible through the API with their events, escaping, and Done.
 */
const sqlite = openTestSqlite()
/** The account id of the first Remove button of a page. */
const removeButtonOf = (html: string) => html.match(/name="bank_account_id" value="([^"]+)"/)?.[1]
const postgres = openTestPostgres()
afterAll(async () => {
  await sqlite.close()
  await postgres.close()
})

describe.each([
  ["SQLite", () => sqlite.factory()],
  ["Postgres", () => postgres.factory()],
])("the hosted funding-accounts page on %s", (_name, factory) => {
  let service: TestService
  let storage: KyselyStorage
  beforeAll(async () => {
    storage = (await factory()) as KyselyStorage
    service = await startTestService({ storage, sandbox: true })
  })
  afterAll(async () => {
    await service.close()
  })

  /** A signed-in workspace with a company, its US entity with the multi-currency application, and a funding token. */
  const client = async (workspace: string, returnUrl?: string) => {
    const token = await service.signIn(workspace)
    const company = await service.request("POST", "/api/v1/companies", {
      token,
      body: { name: `${workspace} Inc`, country: "US", default_currency: "USD" },
    })
    const cid = company.body.data.id as string
    const entity = await service.request("POST", `/api/v1/companies/${cid}/entities`, {
      token,
      body: { name: `${workspace} Inc`, country_alpha2: "US" },
    })
    const eid = entity.body.data.id as string
    const enabled = await service.request("POST", `/api/v1/companies/${cid}/entities/${eid}/features`, {
      token,
      body: { feature_identifier: "multi_currency_account" },
    })
    expect(enabled.status, enabled.text).toBe(201)
    if (returnUrl !== undefined) {
      const configured = await service.request("POST", "/graphql", {
        token,
        body: {
          query: `mutation { upsertTrustedDomainConfig(input: { domains: ["${new URL(returnUrl).hostname}"] }) {
            errors { field messages } } }`,
        },
      })
      expect(configured.body.data.upsertTrustedDomainConfig.errors).toEqual([])
    }
    const issued = await service.request("POST", "/api/v1/hosted_page_tokens", {
      token,
      body: {
        purpose: "funding_accounts",
        entity_id: eid,
        ...(returnUrl === undefined ? {} : { return_url: returnUrl }),
      },
    })
    expect(issued.status, issued.text).toBe(201)
    const hosted = issued.body.data.token as string
    const open = (hostedToken = hosted) =>
      service.request("GET", `/funding-accounts?token=${encodeURIComponent(hostedToken)}`)
    const post = (path: string, fields: Record<string, string>) =>
      service.request("POST", path, {
        raw: new URLSearchParams(fields).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      })
    /** The page's CSRF token, read from its link form as a browser would send it. */
    const csrfOf = async () => {
      const page = await open()
      expect(page.status, page.text).toBe(200)
      return formField(page.text, "/funding-accounts/link", "csrf") ?? ""
    }
    const bankAccounts = async () => {
      const listed = await service.request("GET", `/api/v1/companies/${cid}/bank_accounts`, { token })
      expect(listed.status, listed.text).toBe(200)
      return listed.body.data as Array<{
        id: string
        owner_id: string
        payment_profiles: Array<{ usage_type: string }>
      }>
    }
    return { token, cid, eid, hosted, open, post, csrfOf, bankAccounts }
  }

  const linkForm = (hosted: string, csrf: string, fields: Record<string, string> = {}) => ({
    token: hosted,
    csrf,
    institution_id: "sandbox_tartan",
    mandate_email: "ada@example.com",
    signatory_name: "Ada Lovelace",
    ...fields,
  })

  it("shows the page with its security headers, one style sheet, labels for every input, and an empty list", async () => {
    const acme = await client("hosted-fa-page")
    const page = await acme.open()
    expect(page.status, page.text).toBe(200)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expectPageHeaders(page)
    expect(page.text.startsWith("<!doctype html>")).toBe(true)
    expect(page.text).not.toMatch(/<script|\sstyle=|<style/i)
    expect(page.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"')
    expect(visibleText(page.text)).toContain("No funding account is linked yet.")
    // Every visible input and select has a label pointing at it.
    const controls = [...page.text.matchAll(/<(input|select)\b([^>]*)>/g)].filter(
      (m) => !/type="hidden"/.test(m[2] ?? ""),
    )
    expect(controls.length).toBe(3)
    // Each is required, marked as every hosted page marks a required field.
    expect(visibleText(page.text)).toContain("Fields marked * are required.")
    const starred = [
      ...page.text.matchAll(/<label for="([^"]+)">[^<]*<abbr class="required" title="required">\*<\/abbr><\/label>/g),
    ]
    expect(starred.map((m) => m[1])).toEqual(["institution_id", "mandate_email", "signatory_name"])
    for (const control of controls) {
      const id = control[2]?.match(/id="([^"]+)"/)?.[1]
      expect(page.text).toContain(`<label for="${id}">`)
    }
    const css = await service.request("GET", "/hosted.css")
    expect(css.status).toBe(200)
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8")
    expect(css.text).toContain("@media (max-width: 30rem)")
    expect(css.headers.get("x-content-type-options")).toBe("nosniff")
  })

  it("answers the same 401 page, with the headers, for a missing, tampered, expired, other-purpose or API token", async () => {
    const acme = await client("hosted-fa-401")
    const recipient = await service.request("POST", `/api/v1/companies/${acme.cid}/recipients`, {
      token: acme.token,
      body: { name: "Jane Supplier" },
    })
    const other = await service.request(
      "POST",
      `/api/v1/companies/${acme.cid}/entities/${acme.eid}/hosted_page_tokens`,
      {
        token: acme.token,
        body: { purpose: "recipient_add_bank_account", recipient_id: recipient.body.data.id },
      },
    )
    expect(other.status, other.text).toBe(201)
    const [header, payload, signature] = acme.hosted.split(".")
    const flipped = `${header}.${payload}.${signature?.slice(0, -2)}${signature?.endsWith("AA") ? "BB" : "AA"}`
    const refused = [
      await service.request("GET", "/funding-accounts"),
      await acme.open(""),
      await acme.open(flipped),
      await acme.open("not.a.jwt"),
      await acme.open(other.body.data.token),
      await acme.open(acme.token),
      await service.request("GET", "/funding-accounts/done"),
    ]
    for (const response of refused) {
      expect(response.status, response.text).toBe(401)
      expectPageHeaders(response)
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
      const text = visibleText(response.text)
      expect(text).toContain("This link cannot be used")
      expect(text).toContain("Please ask for a new link")
      expect(text).not.toMatch(/signature|expired at|purpose|jwt/i)
    }
    // A form posted with a refused token is the 401 page too, and changes nothing.
    const csrf = await acme.csrfOf()
    const posted = await acme.post("/funding-accounts/link", linkForm(flipped, csrf))
    expect(posted.status).toBe(401)
    expectPageHeaders(posted)
    expect(await acme.bankAccounts()).toEqual([])

    // Two hours by the workspace's sandbox clock later, the token is expired.
    expect((await acme.open()).status).toBe(200)
    const advanced = await service.request("POST", "/api/v1/sandbox/clock/advance", {
      token: acme.token,
      body: { seconds: 7200 },
    })
    expect(advanced.status, advanced.text).toBe(200)
    const expired = await acme.open()
    expect(expired.status).toBe(401)
    expectPageHeaders(expired)
    expect(visibleText(expired.text)).toContain("This link cannot be used")
  })

  it("refuses a form without its CSRF token or with a wrong one (403, nothing changed)", async () => {
    const acme = await client("hosted-fa-csrf")
    const other = await client("hosted-fa-csrf-other")
    const otherCsrf = await other.csrfOf()
    const own = await acme.csrfOf()
    const flipped = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === "A" ? "B" : "A"}${text.slice(at + 1)}`
    // The last character differs in spare bits only for some values: refused too, as not canonical.
    const spareBits = `${own.slice(0, -1)}${own.endsWith("A") ? "B" : "A"}`
    for (const csrf of ["", "AAAA", otherCsrf, flipped(own, 5), spareBits, `${own}A`, "%%%"]) {
      for (const path of ["/funding-accounts/link", "/funding-accounts/done"]) {
        const response = await acme.post(path, linkForm(acme.hosted, csrf))
        expect(response.status, `${path} ${csrf}`).toBe(403)
        expectPageHeaders(response)
        expect(visibleText(response.text)).toContain("This form could not be accepted")
      }
    }
    const withoutField = await acme.post("/funding-accounts/link", {
      token: acme.hosted,
      institution_id: "sandbox_tartan",
    })
    expect(withoutField.status).toBe(403)
    expect(await acme.bankAccounts()).toEqual([])
  })

  it("links an account: redirect after post, then the list; the API shows it with a debit profile and its created event", async () => {
    const acme = await client("hosted-fa-link")
    const csrf = await acme.csrfOf()
    const linked = await acme.post("/funding-accounts/link", linkForm(acme.hosted, csrf))
    expect(linked.status, linked.text).toBe(303)
    const location = linked.headers.get("location") ?? ""
    expect(location.startsWith("/funding-accounts?")).toBe(true)
    const after = await service.request("GET", location)
    expect(after.status).toBe(200)
    expectPageHeaders(after)
    const text = visibleText(after.text)
    expect(text).toContain("The bank account is linked.")
    expect(text).toContain("Tartan Bank ending in 1111 (active)")
    const accounts = await acme.bankAccounts()
    expect(accounts).toHaveLength(1)
    expect(accounts[0]?.owner_id).toBe(acme.eid)
    expect(accounts[0]?.payment_profiles.map((p) => p.usage_type)).toEqual(["debit"])
    const events = await storage.db
      .selectFrom("events")
      .select(["event"])
      .where("company_id", "=", acme.cid as never)
      .orderBy("id")
      .execute()
    expect(events.map((e) => e.event)).toContain("BankAccountEvents::CreatedEvent")
  })

  it("shows errors next to their fields, keeps what was typed, and links nothing", async () => {
    const acme = await client("hosted-fa-errors")
    const csrf = await acme.csrfOf()
    const response = await acme.post(
      "/funding-accounts/link",
      linkForm(acme.hosted, csrf, { institution_id: "", mandate_email: "not-an-email", signatory_name: "  " }),
    )
    expect(response.status).toBe(422)
    expectPageHeaders(response)
    expect(errorOf(response.text, "institution_id")).toBe("Choose your bank")
    expect(errorOf(response.text, "mandate_email")).toBe("Enter an e-mail address like name@example.com")
    expect(errorOf(response.text, "signatory_name")).toBe("Enter the name of the person signing the mandate")
    expect(formField(response.text, "/funding-accounts/link", "mandate_email")).toBe("not-an-email")
    expect(response.text).toMatch(/<input[^>]*id="mandate_email"[^>]*aria-invalid="true"/)
    const unknown = await acme.post(
      "/funding-accounts/link",
      linkForm(acme.hosted, csrf, { institution_id: "sandbox_nowhere", mandate_email: "" }),
    )
    expect(unknown.status).toBe(422)
    expect(errorOf(unknown.text, "institution_id")).toBe("Choose one of the banks listed")
    expect(errorOf(unknown.text, "mandate_email")).toBe("Enter the e-mail address for the mandate")
    expect(errorOf(unknown.text, "signatory_name")).toBeUndefined()
    expect(await acme.bankAccounts()).toEqual([])
  })

  it("removes an account: gone from the page, its debit profile inactive in the API; a second removal is refused", async () => {
    const acme = await client("hosted-fa-remove")
    const csrf = await acme.csrfOf()
    expect((await acme.post("/funding-accounts/link", linkForm(acme.hosted, csrf))).status).toBe(303)
    const [account] = await acme.bankAccounts()
    const page = await acme.open()
    expect(removeButtonOf(page.text)).toBe(account?.id)
    const removed = await acme.post("/funding-accounts/remove", {
      token: acme.hosted,
      csrf,
      bank_account_id: account?.id ?? "",
    })
    expect(removed.status, removed.text).toBe(303)
    const after = await service.request("GET", removed.headers.get("location") ?? "")
    expectPageHeaders(after)
    expect(visibleText(after.text)).toContain("The bank account is removed.")
    expect(visibleText(after.text)).toContain("No funding account is linked yet.")
    const [kept] = await acme.bankAccounts()
    expect(kept?.payment_profiles).toMatchObject([{ usage_type: "debit", status: "inactive" }])
    const again = await acme.post("/funding-accounts/remove", {
      token: acme.hosted,
      csrf,
      bank_account_id: account?.id ?? "",
    })
    expect(again.status).toBe(404)
    expectPageHeaders(again)
    expect(visibleText(again.text)).toContain("already removed")
    // Another workspace's account, or none, is not this entity's to remove.
    const other = await client("hosted-fa-remove-other")
    const otherCsrf = await other.csrfOf()
    expect((await other.post("/funding-accounts/link", linkForm(other.hosted, otherCsrf))).status).toBe(303)
    const [theirs] = await other.bankAccounts()
    for (const id of [theirs?.id ?? "", "", "ba_nothing", "x".repeat(5000)]) {
      expect(
        (await acme.post("/funding-accounts/remove", { token: acme.hosted, csrf, bank_account_id: id })).status,
      ).toBe(404)
    }
    expect((await other.bankAccounts())[0]?.payment_profiles).toMatchObject([{ status: "active" }])
  })

  it("refuses to remove an account with a pending payment, with a clear message, and removes it once the payment is done", async () => {
    const payer = await setUpPayer(service, "hosted-fa-pending")
    const enabled = await service.request("POST", `/api/v1/companies/${payer.cid}/entities/${payer.eid}/features`, {
      token: payer.token,
      body: { feature_identifier: "multi_currency_account" },
    })
    expect(enabled.status, enabled.text).toBe(201)
    const issued = await service.request("POST", "/api/v1/hosted_page_tokens", {
      token: payer.token,
      body: { purpose: "funding_accounts", entity_id: payer.eid },
    })
    const hosted = issued.body.data.token as string
    const page = await service.request("GET", `/funding-accounts?token=${encodeURIComponent(hosted)}`)
    const csrf = formField(page.text, "/funding-accounts/link", "csrf") ?? ""
    const accountId = removeButtonOf(page.text) ?? ""
    expect(accountId).toMatch(/^ba_/)
    const quote = await createQuote(service, payer, 25)
    const paid = await service.request("POST", `/api/v1/companies/${payer.cid}/payments`, {
      token: payer.token,
      body: paymentBody(quote, "hosted-pending-1"),
    })
    expect(paid.status, paid.text).toBe(201)
    expect(paid.body.data.status).toBe("pending")
    const remove = () =>
      service.request("POST", "/funding-accounts/remove", {
        raw: new URLSearchParams({ token: hosted, csrf, bank_account_id: accountId }).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      })
    const refused = await remove()
    expect(refused.status).toBe(422)
    expectPageHeaders(refused)
    const text = visibleText(refused.text)
    expect(text).toContain("This account has pending or processing payments and cannot be removed until they finish")
    expect(text).toMatch(/First Platypus Bank ending in \d{4} \(active\)/)
    // Once the payment has run to its end, the account can go.
    await service.runJobs()
    const status = await service.request("GET", `/api/v1/companies/${payer.cid}/payments/${paid.body.data.id}`, {
      token: payer.token,
    })
    expect(["completed", "failed"]).toContain(status.body.data.status)
    expect((await remove()).status).toBe(303)
  })

  it("says so when the bank cannot be reached, keeps the form, links nothing; never writes the token in the logs", async () => {
    const acme = await client("hosted-fa-bank-down")
    const csrf = await acme.csrfOf()
    service.bankLinker.failNext("link", new Error("bank down"))
    const response = await acme.post("/funding-accounts/link", linkForm(acme.hosted, csrf))
    expect(response.status).toBe(503)
    expectPageHeaders(response)
    expect(visibleText(response.text)).toContain("Your bank could not be reached just now. Nothing was linked")
    expect(formField(response.text, "/funding-accounts/link", "signatory_name")).toBe("Ada Lovelace")
    expect(await acme.bankAccounts()).toEqual([])
    expect((await acme.post("/funding-accounts/link", linkForm(acme.hosted, csrf))).status).toBe(303)
    expect(service.logs.join("\n")).not.toContain(acme.hosted)
  })

  it("answers hostile requests with a page, never a 500: a huge form, another content type, a repeated token", async () => {
    const acme = await client("hosted-fa-hostile")
    const csrf = await acme.csrfOf()
    const huge = await acme.post(
      "/funding-accounts/link",
      linkForm(acme.hosted, csrf, { signatory_name: "x".repeat(20_000) }),
    )
    expect(huge.status).toBe(413)
    expectPageHeaders(huge)
    const json = await service.request("POST", "/funding-accounts/link", { body: linkForm(acme.hosted, csrf) })
    expect(json.status).toBe(401)
    const twice = await service.request(
      "GET",
      `/funding-accounts?token=${encodeURIComponent(acme.hosted)}&token=${encodeURIComponent(acme.hosted)}`,
    )
    expect(twice.status).toBe(401)
    const long = await acme.post(
      "/funding-accounts/link",
      linkForm(acme.hosted, csrf, { signatory_name: "y".repeat(300) }),
    )
    expect(long.status).toBe(422)
    expect(errorOf(long.text, "signatory_name")).toBe("Use at most 200 characters")
    expect(await acme.bankAccounts()).toEqual([])
  })

  it("escapes what the person typed: markup shows as text", async () => {
    const acme = await client("hosted-fa-escape")
    const csrf = await acme.csrfOf()
    const hostile = `<script>alert(1)</script>"><img src=x onerror=alert(1)>`
    const response = await acme.post(
      "/funding-accounts/link",
      linkForm(acme.hosted, csrf, { institution_id: hostile, signatory_name: hostile, mandate_email: hostile }),
    )
    expect(response.status).toBe(422)
    expect(response.text).not.toContain("<script>")
    expect(response.text).not.toContain("<img")
    expect(formField(response.text, "/funding-accounts/link", "signatory_name")).toBe(hostile)
    expect(response.text).toContain("&lt;script>")
  })

  it("keeps what was typed in the link form when Remove or Done is pressed, and says why Done waits", async () => {
    const acme = await client("hosted-fa-keep")
    const csrf = await acme.csrfOf()
    expect((await acme.post("/funding-accounts/link", linkForm(acme.hosted, csrf))).status).toBe(303)
    const [account] = await acme.bankAccounts()
    const typed = { mandate_email: "grace@example.com", signatory_name: "Grace Hopper" }
    const removed = await acme.post("/funding-accounts/remove", {
      token: acme.hosted,
      csrf,
      bank_account_id: account?.id ?? "",
      institution_id: "",
      ...typed,
    })
    expect(removed.status, removed.text).toBe(200)
    expectPageHeaders(removed)
    expect(visibleText(removed.text)).toContain("The bank account is removed.")
    expect(formField(removed.text, "/funding-accounts/link", "mandate_email")).toBe("grace@example.com")
    expect(formField(removed.text, "/funding-accounts/link", "signatory_name")).toBe("Grace Hopper")

    const done = await acme.post("/funding-accounts/done", { token: acme.hosted, csrf, institution_id: "", ...typed })
    expect(done.status).toBe(422)
    expect(visibleText(done.text)).toContain("You started linking a bank account: press Link account to link it")
    expect(formField(done.text, "/funding-accounts/link", "signatory_name")).toBe("Grace Hopper")
    const cleared = await acme.post("/funding-accounts/done", {
      token: acme.hosted,
      csrf,
      institution_id: "",
      mandate_email: " ",
      signatory_name: "",
    })
    expect(cleared.status).toBe(303)
  })

  it("Done redirects to the token's return URL, its origin allowed as a form action; without one, the done page", async () => {
    const acme = await client("hosted-fa-done", "https://app.initech.example/back?step=2")
    const page = await acme.open()
    expectPageHeaders(page, "'self' https://app.initech.example")
    const done = await acme.post("/funding-accounts/done", { token: acme.hosted, csrf: await acme.csrfOf() })
    expect(done.status).toBe(303)
    expect(done.headers.get("location")).toBe("https://app.initech.example/back?step=2")
    expectPageHeaders(done, "'self' https://app.initech.example")

    const plain = await client("hosted-fa-done-plain")
    const finished = await plain.post("/funding-accounts/done", { token: plain.hosted, csrf: await plain.csrfOf() })
    expect(finished.status).toBe(303)
    const donePage = await service.request("GET", finished.headers.get("location") ?? "")
    expect(donePage.status).toBe(200)
    expectPageHeaders(donePage)
    expect(visibleText(donePage.text)).toContain("All done")
  })
})

describe("the hosted pages under the path of PAYMENTS_HOSTED_URL", () => {
  it("serves them under that path and not at the root", async () => {
    const service = await startTestService({
      storage: await sqlite.factory(),
      hostedUrl: "https://pay.example/hosted/",
    })
    try {
      const refused = await service.request("GET", "/hosted/funding-accounts?token=x")
      expect(refused.status).toBe(401)
      expectPageHeaders(refused)
      expect(refused.text).toContain('href="/hosted/hosted.css"')
      expect((await service.request("GET", "/hosted/hosted.css")).status).toBe(200)
      expect((await service.request("GET", "/funding-accounts?token=x")).status).toBe(404)
    } finally {
      await service.close()
    }
  })
})
