import type { KyselyStorage } from "@payments-engine/adapters/kysely"
import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signedInEntity, trustDomains } from "./support/entity-client.ts"
import { errorOf, expectPageHeaders, formField, visibleText } from "./support/hosted-page-html.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

/**
 * The hosted page `/recipient/add-bank-account` over HTTP on a real socket, on SQLite and
 * Postgres, read as a person sees it: its headers on every answer, the 401 page for every refused
 * token, the CSRF check, the first step and the provider's fields with labels, the refresh of a
 * field, errors next to their fields with what was typed kept, escaping, and an account that is
 * the same as one added through the API, with the same events.
 */
const sqlite = openTestSqlite()
const postgres = openTestPostgres()
afterAll(async () => {
  await sqlite.close()
  await postgres.close()
})

const paths = {
  page: "/recipient/add-bank-account",
  details: "/recipient/add-bank-account/details",
  refresh: "/recipient/add-bank-account/refresh",
  save: "/recipient/add-bank-account/save",
  restart: "/recipient/add-bank-account/restart",
  done: "/recipient/add-bank-account/done",
}

/** What a person fills in for a US account sent by ACH, as the fields form names it. */
const usAccount = {
  entity_type: "COMPANY",
  transfer_methods: "LOCAL",
  "bank_details.local_clearing_system": "ACH",
  "bank_details.bank_country_code": "US",
  "bank_details.account_currency": "USD",
  "bank_details.account_name": "Jane Supplier LLC",
  "bank_details.account_number": "123456789",
  "bank_details.account_routing_type1": "aba",
  "bank_details.account_routing_value1": "021000021",
  "address.country_code": "US",
  "address.street_address": "1 Main Street",
  "address.city": "Springfield",
  "address.state": "IL",
  "address.postcode": "62701",
}

/** The same account as the API's `beneficiary_details`. */
const usBeneficiaryDetails = {
  entity_type: "COMPANY",
  transfer_methods: ["LOCAL"],
  bank_details: {
    local_clearing_system: "ACH",
    bank_country_code: "US",
    account_currency: "USD",
    account_name: "Jane Supplier LLC",
    account_number: "123456789",
    account_routing_type1: "aba",
    account_routing_value1: "021000021",
  },
  address: {
    country_code: "US",
    street_address: "1 Main Street",
    city: "Springfield",
    state: "IL",
    postcode: "62701",
  },
}

interface Listed {
  id: string
  owner_id: string
  owner_type: string
  currency: string
  account_details: Array<Record<string, unknown>>
  routing_details: Array<Record<string, unknown>>
  payment_profiles: Array<Record<string, unknown>>
  party_address: Record<string, unknown> | null
}

describe.each([
  ["SQLite", () => sqlite.factory()],
  ["Postgres", () => postgres.factory()],
])("the hosted add-bank-account page on %s", (_name, factory) => {
  let service: TestService
  let storage: KyselyStorage
  beforeAll(async () => {
    storage = (await factory()) as KyselyStorage
    service = await startTestService({ storage, sandbox: true })
  })
  afterAll(async () => {
    await service.close()
  })

  /** A signed-in workspace with a company, its US entity, a recipient and a token to add the recipient's bank account. */
  const client = async (workspace: string, returnUrl?: string) => {
    const { token, cid, eid } = await signedInEntity(service, workspace)
    const recipient = await service.request("POST", `/api/v1/companies/${cid}/recipients`, {
      token,
      body: { name: "Jane Supplier" },
    })
    expect(recipient.status, recipient.text).toBe(201)
    const rid = recipient.body.data.id as string
    if (returnUrl !== undefined) await trustDomains(service, token, [new URL(returnUrl).hostname])
    const issued = await service.request("POST", `/api/v1/companies/${cid}/entities/${eid}/hosted_page_tokens`, {
      token,
      body: {
        purpose: "recipient_add_bank_account",
        recipient_id: rid,
        ...(returnUrl === undefined ? {} : { return_url: returnUrl }),
      },
    })
    expect(issued.status, issued.text).toBe(201)
    const hosted = issued.body.data.token as string
    const open = (hostedToken = hosted) =>
      service.request("GET", `${paths.page}?token=${encodeURIComponent(hostedToken)}`)
    const post = (path: string, fields: Record<string, string>) =>
      service.request("POST", path, {
        raw: new URLSearchParams(fields).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      })
    /** The page's CSRF token, read from its first form as a browser would send it. */
    const csrfOf = async () => {
      const page = await open()
      expect(page.status, page.text).toBe(200)
      return formField(page.text, paths.details, "csrf") ?? ""
    }
    /** The fields form filled for a US ACH account, with `fields` over it. */
    const filled = (csrf: string, fields: Record<string, string> = {}) => ({
      token: hosted,
      csrf,
      ...usAccount,
      ...fields,
    })
    const bankAccounts = async () => {
      const listed = await service.request("GET", `/api/v1/companies/${cid}/bank_accounts`, { token })
      expect(listed.status, listed.text).toBe(200)
      return listed.body.data as Array<Listed>
    }
    const events = async () =>
      (
        await storage.db
          .selectFrom("events")
          .select(["event"])
          .where("company_id", "=", cid as never)
          .orderBy("id")
          .execute()
      ).map((row) => row.event)
    return { token, cid, eid, rid, hosted, open, post, csrfOf, filled, bankAccounts, events }
  }

  /** Every visible input and select of a page has a label pointing at it; their ids. */
  const expectLabelled = (html: string) => {
    const controls = [...html.matchAll(/<(input|select)\b([^>]*)>/g)].filter((m) => !/type="hidden"/.test(m[2] ?? ""))
    const ids = controls.map((control) => control[2]?.match(/id="([^"]+)"/)?.[1])
    for (const id of ids) expect(html, `label of ${id}`).toMatch(new RegExp(`<label for="${id}">`))
    return ids
  }

  it("shows the first step, then the provider's fields with labels, required marks, hints and Update buttons", async () => {
    const acme = await client("hosted-rba-page")
    const page = await acme.open()
    expect(page.status, page.text).toBe(200)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expectPageHeaders(page)
    expect(page.text.startsWith("<!doctype html>")).toBe(true)
    expect(page.text).not.toMatch(/<script|\sstyle=|<style/i)
    expect(visibleText(page.text)).toContain("Add a bank account For Jane Supplier . Fields marked * are required.")
    expect(expectLabelled(page.text)).toEqual([
      "bank_details-bank_country_code",
      "bank_details-account_currency",
      "transfer_methods-LOCAL",
      "transfer_methods-SWIFT",
    ])
    expect(page.text).toContain('<option value="US">United States</option>')
    // Only the bank countries the payment provider pays to, by name.
    const offered = [...page.text.matchAll(/<option value="([A-Z]{2})">/g)].map((m) => m[1])
    expect(offered.toSorted()).toEqual(await service.paymentProvider.bankCountries())
    expect(page.text).not.toContain("Antarctica")
    expect(page.text).toContain('<option value="USD">USD – US Dollar</option>')

    const csrf = formField(page.text, paths.details, "csrf") ?? ""
    const details = await acme.post(paths.details, {
      token: acme.hosted,
      csrf,
      "bank_details.bank_country_code": "US",
      "bank_details.account_currency": "USD",
      transfer_methods: "LOCAL",
    })
    expect(details.status, details.text).toBe(200)
    expectPageHeaders(details)
    expect(expectLabelled(details.text)).toEqual([
      "entity_type-COMPANY",
      "entity_type-PERSONAL",
      "transfer_methods-LOCAL",
      "transfer_methods-SWIFT",
      "bank_details-local_clearing_system",
      "bank_details-bank_country_code",
      "bank_details-account_currency",
      "bank_details-account_name",
      "bank_details-account_number",
      "bank_details-account_routing_type1",
      "bank_details-account_routing_value1",
      "address-country_code",
      "address-street_address",
      "address-city",
      "address-state",
      "address-postcode",
    ])
    // The rule as input attributes and as a hint the input points at; a required mark on the label.
    const accountNumber = details.text.match(/<input id="bank_details-account_number"[^>]*>/)?.[0]
    for (const attribute of [
      "required",
      'pattern="^[0-9]{4,17}$"',
      'minlength="4"',
      'maxlength="17"',
      'aria-describedby="bank_details-account_number-hint"',
    ]) {
      expect(accountNumber).toContain(` ${attribute}`)
    }
    expect(visibleText(details.text)).toContain("Account number * 4 to 17 digits.")
    expect(visibleText(details.text)).toContain(
      "ABA routing number * The 9-digit routing number, for example 021000021.",
    )
    expect(details.text).not.toMatch(/<input id="address-state"[^>]*required/)
    // The three fields that change the form have their own button; the defaults are chosen.
    const text = visibleText(details.text)
    for (const label of ["Recipient type", "Transfer method", "Clearing system"]) {
      expect(text).toContain(`Update form for ${label}`)
    }
    expect(details.text).toMatch(/<input type="radio" id="entity_type-COMPANY"[^>]*checked/)
    expect(details.text).toMatch(/<option value="ACH" selected>/)
    expect(formField(details.text, paths.save, "address.country_code")).toBe("US")
  })

  it("gives the form back for a changed refresh field, with what was typed kept", async () => {
    const acme = await client("hosted-rba-refresh")
    const csrf = await acme.csrfOf()
    const swift = await acme.post(
      paths.refresh,
      acme.filled(csrf, { transfer_methods: "SWIFT", "bank_details.account_number": "98765" }),
    )
    expect(swift.status, swift.text).toBe(200)
    expectPageHeaders(swift)
    expect(visibleText(swift.text)).toContain("SWIFT/BIC code")
    expect(swift.text).not.toContain('id="bank_details-local_clearing_system"')
    expect(swift.text).toMatch(/<input type="radio" id="transfer_methods-SWIFT"[^>]*checked/)
    expect(formField(swift.text, paths.save, "bank_details.account_number")).toBe("98765")
    expect(formField(swift.text, paths.save, "address.city")).toBe("Springfield")
    expect(swift.text).toMatch(/<option value="swift" selected>/)

    const personal = await acme.post(paths.refresh, acme.filled(csrf, { entity_type: "PERSONAL" }))
    expect(personal.status).toBe(200)
    expect(visibleText(personal.text)).toContain("Full name")
    expect(formField(personal.text, paths.save, "bank_details.account_name")).toBe("Jane Supplier LLC")
    expect(await acme.bankAccounts()).toEqual([])
  })

  it("goes back to change the country with what was typed carried along, and kept in each field the new form still has", async () => {
    const acme = await client("hosted-rba-restart")
    const csrf = await acme.csrfOf()
    const details = await acme.post(paths.details, acme.filled(csrf))
    expect(details.text).toContain(`formaction="${paths.restart}"`)
    const back = await acme.post(paths.restart, acme.filled(csrf))
    expect(back.status, back.text).toBe(200)
    expectPageHeaders(back)
    expect(back.text).toMatch(/<option value="US" selected>United States<\/option>/)
    expect(formField(back.text, paths.details, "bank_details.account_name")).toBe("Jane Supplier LLC")
    // The hidden fields of the first step, token and CSRF token with them, as a browser sends them.
    const carried = [...back.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(
      (m) => [m[1] ?? "", m[2] ?? ""] as [string, string],
    )
    const chosen = {
      "bank_details.bank_country_code": "GB",
      "bank_details.account_currency": "GBP",
      transfer_methods: "LOCAL",
    }
    const gb = await acme.post(paths.details, Object.fromEntries([...carried, ...Object.entries(chosen)]))
    expect(gb.status, gb.text).toBe(200)
    expect(formField(gb.text, paths.save, "bank_details.account_name")).toBe("Jane Supplier LLC")
    expect(formField(gb.text, paths.save, "address.city")).toBe("Springfield")
    expect(formField(gb.text, paths.save, "address.street_address")).toBe("1 Main Street")
    expect(await acme.bankAccounts()).toEqual([])
  })

  it("adds the account: 303 to the done page; the API shows the same resources as an account added through it, and the same events", async () => {
    const acme = await client("hosted-rba-save")
    const csrf = await acme.csrfOf()
    // Before anything is added, the done page sends the person to the form.
    const early = await service.request("GET", `${paths.done}?token=${encodeURIComponent(acme.hosted)}`)
    expect(early.status).toBe(303)
    expect(early.headers.get("location")).toBe(`${paths.page}?token=${encodeURIComponent(acme.hosted)}`)
    const saved = await acme.post(paths.save, acme.filled(csrf, { "bank_details.account_number": " 123456789 " }))
    expect(saved.status, saved.text).toBe(303)
    expectPageHeaders(saved)
    const location = saved.headers.get("location") ?? ""
    expect(location.startsWith(`${paths.done}?token=`)).toBe(true)
    const done = await service.request("GET", location)
    expect(done.status).toBe(200)
    expectPageHeaders(done)
    expect(visibleText(done.text)).toContain("Bank account added The bank account of Jane Supplier is saved.")
    // The token is used up: its page says the account is added, a second save gets the 401 page, and nothing more is added.
    const reopened = await acme.open()
    expect(reopened.status).toBe(200)
    expectPageHeaders(reopened)
    expect(visibleText(reopened.text)).toContain(
      "This link was already used: The bank account of Jane Supplier is saved. Nothing more is needed here",
    )
    const again = await acme.post(paths.save, acme.filled(csrf, { "bank_details.account_number": "987654321" }))
    expect(again.status).toBe(401)
    expect(await acme.bankAccounts()).toHaveLength(1)

    const [hosted, ...others] = await acme.bankAccounts()
    expect(others).toEqual([])
    expect(hosted).toMatchObject({ owner_id: acme.rid, owner_type: "Counterparty", currency: "USD" })
    expect(hosted?.account_details).toMatchObject([{ account_number_mask: "****6789" }])
    expect(hosted?.routing_details).toMatchObject([{ routing_number: "021000021", routing_number_type: "aba" }])
    expect(hosted?.payment_profiles).toMatchObject([{ usage_type: "credit", status: "active", payment_method: "ach" }])
    const hostedEvents = await acme.events()
    expect(hostedEvents).toContain("BankAccountEvents::CreatedEvent")
    expect(hostedEvents).toContain("PaymentProfileEvents::CreatedEvent")

    // The same details through the API: the same resources, but for ids and times.
    const viaApi = await client("hosted-rba-save-api")
    const created = await service.request(
      "POST",
      `/api/v1/companies/${viaApi.cid}/recipients/${viaApi.rid}/bank_accounts`,
      {
        token: viaApi.token,
        body: { entity_id: viaApi.eid, beneficiary_details: usBeneficiaryDetails },
      },
    )
    expect(created.status, created.text).toBe(201)
    const [api] = await viaApi.bankAccounts()
    const shape = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value), (key, field) =>
        [
          "id",
          "owner_id",
          "company_id",
          "bank_account_id",
          "created_at",
          "updated_at",
          "provider_beneficiary_id",
        ].includes(key)
          ? typeof field
          : field,
      )
    expect(shape(hosted)).toEqual(shape(api))
    expect(hostedEvents).toEqual(await viaApi.events())
  })

  it("shows the engine's errors next to their fields, keeps every typed value, and adds nothing", async () => {
    const acme = await client("hosted-rba-errors")
    const csrf = await acme.csrfOf()
    const response = await acme.post(
      paths.save,
      acme.filled(csrf, {
        "bank_details.account_routing_value1": "123456789",
        "bank_details.account_number": "12",
        "address.city": "  ",
      }),
    )
    expect(response.status).toBe(422)
    expectPageHeaders(response)
    expect(errorOf(response.text, "bank_details-account_routing_value1")).toBe(
      "ABA routing number is not a valid ABA routing number",
    )
    expect(errorOf(response.text, "bank_details-account_number")).toBe(
      "Account number is too short (minimum is 4 characters)",
    )
    expect(errorOf(response.text, "address-city")).toBe("City is required")
    // Above the form, each error links to its field.
    expect(visibleText(response.text)).toContain("Please correct these 3 fields: Account number is too short")
    expect(response.text).toContain('<a href="#address-city">City is required</a>')
    expect(errorOf(response.text, "address-street_address")).toBeUndefined()
    expect(response.text).toMatch(
      /<input id="bank_details-account_number"[^>]*aria-invalid="true" aria-describedby="bank_details-account_number-hint bank_details-account_number-error"/,
    )
    expect(formField(response.text, paths.save, "bank_details.account_routing_value1")).toBe("123456789")
    expect(formField(response.text, paths.save, "bank_details.account_number")).toBe("12")
    expect(formField(response.text, paths.save, "address.street_address")).toBe("1 Main Street")
    expect(formField(response.text, paths.save, "csrf")).toBe(csrf)
    expect(await acme.bankAccounts()).toEqual([])
    expect(await acme.events()).not.toContain("BankAccountEvents::CreatedEvent")
  })

  it("shows the provider's refusal of the first step's choices, and a missing choice next to its field", async () => {
    const acme = await client("hosted-rba-choose")
    const csrf = await acme.csrfOf()
    const refused = await acme.post(paths.details, {
      token: acme.hosted,
      csrf,
      "bank_details.bank_country_code": "FR",
      "bank_details.account_currency": "USD",
      transfer_methods: "LOCAL",
    })
    expect(refused.status).toBe(422)
    expectPageHeaders(refused)
    expect(visibleText(refused.text)).toContain("Bank country France does not support currency USD")
    expect(refused.text).toMatch(/<option value="FR" selected>France<\/option>/)
    // A country the provider does not pay to, sent by hand, is explained by its name next to its field.
    const unsupported = await acme.post(paths.details, {
      token: acme.hosted,
      csrf,
      "bank_details.bank_country_code": "AQ",
      "bank_details.account_currency": "USD",
      transfer_methods: "LOCAL",
    })
    expect(unsupported.status).toBe(422)
    expect(errorOf(unsupported.text, "bank_details-bank_country_code")).toBe(
      "Payments cannot be sent to banks in Antarctica: choose a country from the list",
    )
    const missing = await acme.post(paths.details, { token: acme.hosted, csrf, "bank_details.account_currency": "EUR" })
    expect(missing.status).toBe(422)
    expect(errorOf(missing.text, "bank_details-bank_country_code")).toBe("Choose the country of the bank")
    expect(missing.text).toMatch(/<option value="EUR" selected>/)
  })

  it("says so when the provider cannot be reached (503), keeps the form, adds nothing", async () => {
    const acme = await client("hosted-rba-down")
    const csrf = await acme.csrfOf()
    service.paymentProvider.failNext("createBeneficiary", new Error("provider down"))
    const response = await acme.post(paths.save, acme.filled(csrf))
    expect(response.status).toBe(503)
    expectPageHeaders(response)
    expect(visibleText(response.text)).toContain("cannot be reached just now. Nothing was saved")
    expect(formField(response.text, paths.save, "bank_details.account_number")).toBe("123456789")
    expect(await acme.bankAccounts()).toEqual([])
    service.paymentProvider.failNext("bankAccountRequirements", new Error("provider down"))
    const choose = await acme.post(paths.details, acme.filled(csrf))
    expect(choose.status).toBe(503)
    expect(visibleText(choose.text)).toContain("cannot be reached just now")
    expect((await acme.post(paths.save, acme.filled(csrf))).status).toBe(303)
    expect(service.logs.join("\n")).not.toContain(acme.hosted)
  })

  it("answers the same 401 page for a missing, tampered, expired, other-purpose or API token, and adds nothing", async () => {
    const acme = await client("hosted-rba-401")
    const enabled = await service.request("POST", `/api/v1/companies/${acme.cid}/entities/${acme.eid}/features`, {
      token: acme.token,
      body: { feature_identifier: "multi_currency_account" },
    })
    expect(enabled.status, enabled.text).toBe(201)
    const funding = await service.request("POST", "/api/v1/hosted_page_tokens", {
      token: acme.token,
      body: { purpose: "funding_accounts", entity_id: acme.eid },
    })
    expect(funding.status, funding.text).toBe(201)
    const [header, payload, signature] = acme.hosted.split(".")
    const flipped = `${header}.${payload}.${signature?.slice(0, -2)}${signature?.endsWith("AA") ? "BB" : "AA"}`
    const refused = [
      await service.request("GET", paths.page),
      await acme.open(""),
      await acme.open(flipped),
      await acme.open("not.a.jwt"),
      await acme.open(funding.body.data.token),
      await acme.open(acme.token),
      await service.request("GET", paths.done),
    ]
    for (const response of refused) {
      expect(response.status, response.text).toBe(401)
      expectPageHeaders(response)
      const text = visibleText(response.text)
      expect(text).toContain("This link cannot be used")
      expect(text).not.toMatch(/signature|expired at|purpose|jwt/i)
    }
    const csrf = await acme.csrfOf()
    for (const path of [paths.details, paths.refresh, paths.save]) {
      for (const hosted of [flipped, funding.body.data.token, ""]) {
        const posted = await acme.post(path, { ...acme.filled(csrf), token: hosted })
        expect(posted.status, path).toBe(401)
        expectPageHeaders(posted)
      }
    }
    expect(await acme.bankAccounts()).toEqual([])

    expect((await acme.open()).status).toBe(200)
    const advanced = await service.request("POST", "/api/v1/sandbox/clock/advance", {
      token: acme.token,
      body: { seconds: 7200 },
    })
    expect(advanced.status, advanced.text).toBe(200)
    const expired = await acme.open()
    expect(expired.status).toBe(401)
    expectPageHeaders(expired)
    expect((await acme.post(paths.save, acme.filled(csrf))).status).toBe(401)
    expect(await acme.events()).not.toContain("BankAccountEvents::CreatedEvent")
  })

  it("refuses a form without its CSRF token or with another's (403) and adds nothing", async () => {
    const acme = await client("hosted-rba-csrf")
    const other = await client("hosted-rba-csrf-other")
    const otherCsrf = await other.csrfOf()
    for (const csrf of ["", "AAAA", otherCsrf, "%%%"]) {
      for (const path of [paths.details, paths.refresh, paths.save]) {
        const response = await acme.post(path, acme.filled(csrf))
        expect(response.status, `${path} ${csrf}`).toBe(403)
        expectPageHeaders(response)
        expect(visibleText(response.text)).toContain("This form could not be accepted")
      }
    }
    const { csrf: _csrf, ...withoutField } = acme.filled("")
    expect((await acme.post(paths.save, withoutField)).status).toBe(403)
    expect(await acme.bankAccounts()).toEqual([])
    expect(await acme.events()).not.toContain("BankAccountEvents::CreatedEvent")
  })

  it("escapes what the person typed: markup shows as text", async () => {
    const acme = await client("hosted-rba-escape")
    const csrf = await acme.csrfOf()
    const hostile = `<script>alert(1)</script>"><img src=x onerror=alert(1)>`
    const response = await acme.post(
      paths.save,
      acme.filled(csrf, {
        "bank_details.account_number": hostile,
        "address.city": hostile,
        "bank_details.account_routing_type1": hostile,
      }),
    )
    expect(response.status).toBe(422)
    expect(response.text).not.toContain("<script>")
    expect(response.text).not.toContain("<img")
    expect(formField(response.text, paths.save, "address.city")).toBe(hostile)
    expect(response.text).toContain("&lt;script>")
    const chosen = await acme.post(paths.details, {
      token: acme.hosted,
      csrf,
      "bank_details.bank_country_code": hostile,
    })
    expect(chosen.status).toBe(422)
    expect(chosen.text).not.toContain("<script>")
    expect(await acme.bankAccounts()).toEqual([])
  })

  it("redirects to the token's return URL once added, its origin allowed as a form action", async () => {
    const acme = await client("hosted-rba-return", "https://app.initech.example/recipients/1?added=1")
    const page = await acme.open()
    expectPageHeaders(page, "'self' https://app.initech.example")
    const saved = await acme.post(paths.save, acme.filled(await acme.csrfOf()))
    expect(saved.status, saved.text).toBe(303)
    expect(saved.headers.get("location")).toBe("https://app.initech.example/recipients/1?added=1")
    expectPageHeaders(saved, "'self' https://app.initech.example")
    expect(await acme.bankAccounts()).toHaveLength(1)
  })

  it("never reaches another workspace's recipient: the token alone names it", async () => {
    const acme = await client("hosted-rba-own")
    const other = await client("hosted-rba-stranger")
    const csrf = await acme.csrfOf()
    const saved = await acme.post(paths.save, {
      ...acme.filled(csrf),
      recipient_id: other.rid,
      company_id: other.cid,
      entity_id: other.eid,
    })
    expect(saved.status, saved.text).toBe(303)
    expect((await acme.bankAccounts()).map((account) => account.owner_id)).toEqual([acme.rid])
    expect(await other.bankAccounts()).toEqual([])
    // A token whose claims were rewritten to name the other recipient is not one of ours.
    const [header, payload, signature] = acme.hosted.split(".")
    const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString("utf8")) as Record<string, unknown>
    const rewritten = Buffer.from(JSON.stringify(claims).replaceAll(acme.rid, other.rid)).toString("base64url")
    expect(rewritten).not.toBe(payload)
    const forged = `${header}.${rewritten}.${signature}`
    expect((await acme.open(forged)).status).toBe(401)
    expect((await acme.post(paths.save, { ...acme.filled(csrf), token: forged })).status).toBe(401)
    expect(await other.bankAccounts()).toEqual([])
  })

  it("says the recipient is gone once it is deleted, and adds nothing", async () => {
    const acme = await client("hosted-rba-deleted")
    const csrf = await acme.csrfOf()
    const deleted = await service.request("DELETE", `/api/v1/companies/${acme.cid}/recipients/${acme.rid}`, {
      token: acme.token,
    })
    expect(deleted.status).toBe(204)
    const page = await acme.open()
    expect(page.status).toBe(404)
    expectPageHeaders(page)
    expect(visibleText(page.text)).toContain("This recipient is not available")
    expect((await acme.post(paths.save, acme.filled(csrf))).status).toBe(404)
    expect(await acme.bankAccounts()).toEqual([])
  })
})
