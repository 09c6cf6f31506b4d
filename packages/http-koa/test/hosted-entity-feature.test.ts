import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { errorOf, expectPageHeaders, formField, visibleText } from "./support/hosted-page-html.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

/**
 * The hosted entity-feature page over HTTP on a real socket, on SQLite and Postgres, read as a
 * person sees it: its headers on every answer, the 401 page for every refused token, the CSRF
 * check of every form, the onboarding pre-filled from what the API stored, each section saved
 * with errors next to their fields, the final submit seen through the API, the pending-action
 * round, the return URL, and another workspace's data never shown.
 */
const sqlite = openTestSqlite()
const postgres = openTestPostgres()
afterAll(async () => {
  await sqlite.close()
  await postgres.close()
})

type Fields = Record<string, string> | Array<[string, string]>

describe.each([
  ["SQLite", () => sqlite.factory()],
  ["Postgres", () => postgres.factory()],
])("the hosted entity-feature page on %s", (_name, factory) => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService({ storage: await factory(), sandbox: true })
  })
  afterAll(async () => {
    await service.close()
  })

  /** A signed-in workspace with a company, its US entity with the multi-currency application, and an onboarding token. */
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
    const applicationId = enabled.body.data.application_id as string
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
    const issue = async (purpose: "onboarding" | "pending_action") => {
      const issued = await service.request("POST", `/api/v1/companies/${cid}/entities/${eid}/hosted_page_tokens`, {
        token,
        body: {
          feature_identifier: "multi_currency_account",
          purpose,
          application_id: applicationId,
          ...(returnUrl === undefined ? {} : { return_url: returnUrl }),
        },
      })
      expect(issued.status, issued.text).toBe(201)
      return issued.body.data.token as string
    }
    const hosted = await issue("onboarding")
    const open = (hostedToken = hosted) =>
      service.request("GET", `/entity-feature?token=${encodeURIComponent(hostedToken)}`)
    const post = (path: string, fields: Fields) =>
      service.request("POST", path, {
        raw: new URLSearchParams(fields).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      })
    /** The page's CSRF token, read from its business form as a browser would send it. */
    const csrfOf = async (hostedToken = hosted) => {
      const page = await open(hostedToken)
      expect(page.status, page.text).toBe(200)
      return formField(page.text, "/entity-feature/save", "csrf") ?? ""
    }
    const api = (method: string, path: string, body?: unknown) =>
      service.request(method, `/api/v1/companies/${cid}/entities/${eid}${path}`, {
        token,
        ...(body === undefined ? {} : { body }),
      })
    const onboarding = async () => {
      const read = await api("GET", "/onboarding")
      expect(read.status, read.text).toBe(200)
      return read.body.data
    }
    const featureStatus = async () => (await api("GET", "/features")).body.data[0].status as string
    return { token, cid, eid, applicationId, hosted, issue, open, post, csrfOf, api, onboarding, featureStatus }
  }

  type Client = Awaited<ReturnType<typeof client>>

  const businessForm = (acme: Client, csrf: string, fields: Record<string, string> = {}) => ({
    token: acme.hosted,
    csrf,
    "business_details.business_name": "Acme Trading LLC",
    "business_details.business_name_trading": "",
    "business_details.business_structure": "LLC",
    "business_details.business_start_date": "2020-01-31",
    "business_details.website_url": "https://acme.example",
    "business_details.contact_phone": "+1 555 0100",
    "primary_contact.email": "ops@acme.example",
    ...fields,
  })

  const addressForm = (acme: Client, csrf: string, fields: Record<string, string> = {}) => ({
    token: acme.hosted,
    csrf,
    "business_address.line1": "1 Main Street",
    "business_address.line2": "",
    "business_address.city": "Springfield",
    "business_address.state": "IL",
    "business_address.postal_code": "62701",
    "business_address.country_alpha2": "US",
    ...fields,
  })

  /** A person's fields as the page names them: the new person's (`new.`) or a listed one's (`person.<id>.`). */
  const personForm = (
    hosted: string,
    csrf: string,
    fields: Record<string, string>,
    roles: Array<string> = [],
    prefix = "new.",
  ) => [
    ["token", hosted] as [string, string],
    ["csrf", csrf] as [string, string],
    ...Object.entries(fields).map(([name, value]) => [`${prefix}${name}`, value] as [string, string]),
    ...roles.map((role) => [`${prefix}roles`, role] as [string, string]),
  ]

  it("shows the onboarding pre-filled from what the API stored, with its headers and a label for every input", async () => {
    const acme = await client("hosted-ef-page")
    const patched = await acme.api("PATCH", "/onboarding", {
      business_details: { business_name: "Acme Stored Inc", website_url: "https://stored.example" },
      business_address: { line1: "9 Stored Road", city: "Boston", postal_code: "02101", country_alpha2: "US" },
      primary_contact: { email: "stored@acme.example" },
    })
    expect(patched.status, patched.text).toBe(200)
    const person = await acme.api("POST", "/onboarding/persons", {
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace@acme.example",
      roles: ["director"],
    })
    expect(person.status, person.text).toBe(201)
    const page = await acme.open()
    expect(page.status, page.text).toBe(200)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expectPageHeaders(page)
    expect(page.text).not.toMatch(/<script|\sstyle=|<style/i)
    expect(visibleText(page.text)).toContain("Open your multi-currency account")
    expect(formField(page.text, "/entity-feature/save", "business_details.business_name")).toBe("Acme Stored Inc")
    expect(formField(page.text, "/entity-feature/save", "business_details.website_url")).toBe("https://stored.example")
    expect(formField(page.text, "/entity-feature/save", "primary_contact.email")).toBe("stored@acme.example")
    expect(formField(page.text, "/entity-feature/save", "business_address.line1")).toBe("9 Stored Road")
    expect(formField(page.text, "/entity-feature/save", "business_address.postal_code")).toBe("02101")
    const grace = person.body.data.id as string
    expect(formField(page.text, "/entity-feature/save", `person.${grace}.first_name`)).toBe("Grace")
    expect(page.text).toContain(`name="person_id" value="${grace}"`)
    expect(page.text).toMatch(
      new RegExp(`id="person-${grace}-roles-director"[^>]*checked|checked[^>]*id="person-${grace}-roles-director"`),
    )
    // Countries are chosen by name, and the stored one is chosen.
    expect(page.text).toMatch(
      /<select id="business_address-country_alpha2"[\s\S]*?<option value="US" selected>United States<\/option>/,
    )
    expect(page.text).toContain('<option value="DE">Germany</option>')
    // Every required field is starred after its label, and no other.
    const starred = [...page.text.matchAll(/<label for="([^"]+)">[^<]*<abbr class="required"/g)].map((m) => m[1])
    expect(starred).toEqual([
      "business_details-business_name",
      "business_address-line1",
      "business_address-city",
      "business_address-postal_code",
      "business_address-country_alpha2",
    ])
    // Every visible input and select has a label pointing at it, and ids are unique.
    const controls = [...page.text.matchAll(/<(?:input|select)\b([^>]*)>/g)].filter(
      (m) => !/type="hidden"/.test(m[1] ?? ""),
    )
    expect(controls.length).toBe(7 + 6 + 2 * (6 + 5))
    const ids = controls.map((control) => control[1]?.match(/id="([^"]+)"/)?.[1])
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(page.text).toContain(`<label for="${id}">`)
  })

  it("answers the same 401 page for a missing, tampered, expired, other-purpose or API token, and changes nothing", async () => {
    const acme = await client("hosted-ef-401")
    const funding = await service.request("POST", "/api/v1/hosted_page_tokens", {
      token: acme.token,
      body: { purpose: "funding_accounts", entity_id: acme.eid },
    })
    expect(funding.status, funding.text).toBe(201)
    const [header, payload, signature] = acme.hosted.split(".")
    const flipped = `${header}.${payload}.${signature?.slice(0, -2)}${signature?.endsWith("AA") ? "BB" : "AA"}`
    const refused = [
      await service.request("GET", "/entity-feature"),
      await acme.open(""),
      await acme.open(flipped),
      await acme.open("not.a.jwt"),
      await acme.open(funding.body.data.token),
      await acme.open(acme.token),
      await service.request("GET", "/entity-feature/done"),
    ]
    for (const response of refused) {
      expect(response.status, response.text).toBe(401)
      expectPageHeaders(response)
      expect(visibleText(response.text)).toContain("This link cannot be used")
    }
    const csrf = await acme.csrfOf()
    for (const path of ["/entity-feature/save", "/entity-feature/submit"]) {
      const posted = await acme.post(path, { ...businessForm(acme, csrf), token: flipped })
      expect(posted.status).toBe(401)
      expectPageHeaders(posted)
    }
    expect(await acme.onboarding()).toBeNull()

    const advanced = await service.request("POST", "/api/v1/sandbox/clock/advance", {
      token: acme.token,
      body: { seconds: 7200 },
    })
    expect(advanced.status, advanced.text).toBe(200)
    const expired = await acme.open()
    expect(expired.status).toBe(401)
    expectPageHeaders(expired)
  })

  it("refuses every form without its CSRF token or with a wrong one (403, nothing changed)", async () => {
    const acme = await client("hosted-ef-csrf")
    const other = await client("hosted-ef-csrf-other")
    const otherCsrf = await other.csrfOf()
    const own = await acme.csrfOf()
    for (const csrf of ["", "AAAA", otherCsrf, `${own}A`]) {
      for (const path of ["/entity-feature/save", "/entity-feature/persons/remove", "/entity-feature/submit"]) {
        const response = await acme.post(path, {
          ...businessForm(acme, csrf),
          ...addressForm(acme, csrf),
          "new.first_name": "Eve",
        })
        expect(response.status, `${path} ${csrf}`).toBe(403)
        expectPageHeaders(response)
        expect(visibleText(response.text)).toContain("This form could not be accepted")
      }
    }
    expect(await acme.onboarding()).toBeNull()
    expect(await acme.featureStatus()).toBe("CREATED")
  })

  it("shows errors next to their fields with every typed value kept (422), escapes hostile values, and saves nothing wrong", async () => {
    const acme = await client("hosted-ef-errors")
    const csrf = await acme.csrfOf()
    const bad = await acme.post(
      "/entity-feature/save",
      businessForm(acme, csrf, {
        "business_details.business_name": "Kept Name",
        "business_details.business_start_date": "2025-02-30",
        "business_details.website_url": "not a url",
        "primary_contact.email": "nope",
      }),
    )
    expect(bad.status, bad.text).toBe(422)
    expectPageHeaders(bad)
    expect(errorOf(bad.text, "business_details-business_start_date")).toBe("must be a date in the format YYYY-MM-DD")
    expect(errorOf(bad.text, "business_details-website_url")).toBe("must be an http or https URL")
    expect(errorOf(bad.text, "primary_contact-email")).toBe("must be a valid e-mail address")
    expect(errorOf(bad.text, "business_details-business_name")).toBeUndefined()
    expect(formField(bad.text, "/entity-feature/save", "business_details.business_name")).toBe("Kept Name")
    expect(formField(bad.text, "/entity-feature/save", "business_details.website_url")).toBe("not a url")
    expect(bad.text).toMatch(/<input[^>]*id="business_details-website_url"[^>]*aria-invalid="true"/)
    expect(await acme.onboarding()).toBeNull()

    const badPerson = await acme.post(
      "/entity-feature/save",
      personForm(acme.hosted, csrf, { first_name: "Ada", last_name: "Lovelace", email: "ada@", nationality: "XX" }, [
        "director",
      ]),
    )
    expect(badPerson.status).toBe(422)
    expect(errorOf(badPerson.text, "new-email")).toBe("must be a valid e-mail address")
    expect(errorOf(badPerson.text, "new-nationality")).toBe("must be an ISO 3166-1 alpha-2 country code")
    expect(formField(badPerson.text, "/entity-feature/save", "new.first_name")).toBe("Ada")
    expect(badPerson.text).toMatch(/id="new-roles-director"[^>]*checked|checked[^>]*id="new-roles-director"/)
    expect((await acme.api("GET", "/onboarding/persons")).body.data).toEqual([])

    // Two people: an error saving one shows on its form only, with what was typed kept.
    const first = await acme.api("POST", "/onboarding/persons", { first_name: "First" })
    const second = await acme.api("POST", "/onboarding/persons", { first_name: "Second" })
    const badEdit = await acme.post(
      "/entity-feature/save",
      personForm(acme.hosted, csrf, { first_name: "Second Typed", email: "x@" }, [], `person.${second.body.data.id}.`),
    )
    expect(badEdit.status).toBe(422)
    expect(errorOf(badEdit.text, `person-${second.body.data.id}-email`)).toBe("must be a valid e-mail address")
    expect(errorOf(badEdit.text, `person-${first.body.data.id}-email`)).toBeUndefined()
    expect(errorOf(badEdit.text, "new-email")).toBeUndefined()
    expect(badEdit.text).toContain('value="Second Typed"')
    expect(badEdit.text).toMatch(/<details class="person" open><summary><span class="person-name">Second</)
    const listed = await acme.api("GET", "/onboarding/persons")
    expect(listed.body.data.map((p: { first_name: string }) => p.first_name)).toEqual(["First", "Second"])
    for (const person of [first, second]) {
      expect((await acme.api("DELETE", `/onboarding/persons/${person.body.data.id}`)).status).toBe(204)
    }

    const hostile = `<script>alert("x")</script><img src=x onerror=alert(1)>`
    expect(
      (await acme.post("/entity-feature/save", businessForm(acme, csrf, { "business_details.business_name": hostile })))
        .status,
    ).toBe(303)
    expect(
      (await acme.post("/entity-feature/save", personForm(acme.hosted, csrf, { first_name: hostile }))).status,
    ).toBe(303)
    const page = await acme.open()
    expect(page.text).not.toContain("<script>alert")
    expect(page.text).not.toContain("<img src=x")
    expect(page.text).toContain("&lt;script>alert(&quot;x&quot;)&lt;/script>")
    expect(formField(page.text, "/entity-feature/save", "business_details.business_name")).toBe(hostile)
    expect(visibleText(page.text)).toContain(hostile)
  })

  it("keeps what was typed whatever button is pressed: Submit and Remove save it first, and show it again with the errors", async () => {
    const acme = await client("hosted-ef-keep")
    const csrf = await acme.csrfOf()
    // Typed, never saved, then Submit: what is valid is kept (saved), the rest is asked for by its field.
    const submitted = await acme.post("/entity-feature/submit", {
      ...businessForm(acme, csrf, { "business_details.website_url": "" }),
      "business_address.line1": "1 Typed Road",
      "business_address.city": "",
      "new.first_name": "",
    })
    expect(submitted.status, submitted.text).toBe(422)
    expect(formField(submitted.text, "/entity-feature/save", "business_details.business_name")).toBe("Acme Trading LLC")
    expect(formField(submitted.text, "/entity-feature/save", "business_address.line1")).toBe("1 Typed Road")
    expect(errorOf(submitted.text, "business_address-city")).toBe("City is required before submitting")
    expect(errorOf(submitted.text, "persons")).toBe("Add at least one person before submitting")
    expect(await acme.featureStatus()).toBe("CREATED")

    // A field the engine refuses: nothing is submitted, every typed value comes back, the refused one marked.
    const refused = await acme.post("/entity-feature/submit", [
      ...Object.entries(addressForm(acme, csrf, { "business_address.city": "Typed City" })),
      ["business_details.website_url", "not a url"],
      ...personForm(acme.hosted, csrf, { first_name: "Typed", email: "typed@" }, ["director"]).slice(2),
    ])
    expect(refused.status, refused.text).toBe(422)
    expect(visibleText(refused.text)).toContain("the application is not submitted yet")
    expect(formField(refused.text, "/entity-feature/save", "business_details.website_url")).toBe("not a url")
    expect(errorOf(refused.text, "business_details-website_url")).toBe("must be an http or https URL")
    expect(formField(refused.text, "/entity-feature/save", "new.first_name")).toBe("Typed")
    expect(errorOf(refused.text, "new-email")).toBe("must be a valid e-mail address")
    expect(await acme.featureStatus()).toBe("CREATED")

    // Remove saves what was typed elsewhere, then removes the person.
    const ada = await acme.api("POST", "/onboarding/persons", { first_name: "Ada" })
    const removed = await acme.post("/entity-feature/persons/remove", {
      ...businessForm(acme, csrf, { "business_details.business_name": "Typed Before Remove" }),
      ...addressForm(acme, csrf, { "business_address.city": "Typed City" }),
      person_id: ada.body.data.id,
    })
    expect(removed.status, removed.text).toBe(303)
    const stored = await acme.onboarding()
    expect(stored.business_details.business_name).toBe("Typed Before Remove")
    expect(stored.business_details.business_address.city).toBe("Typed City")
    expect(stored.persons).toEqual([])
  })

  it("saves each section as the person goes, then submits: the feature is SUBMITTED through the API and the token used up; another token has nothing left to do", async () => {
    const acme = await client("hosted-ef-submit")
    const csrf = await acme.csrfOf()
    const early = await acme.post("/entity-feature/submit", { token: acme.hosted, csrf })
    expect(early.status).toBe(422)
    expectPageHeaders(early)
    expect(errorOf(early.text, "business_details-business_name")).toBe("Business name is required before submitting")
    expect(errorOf(early.text, "business_address-line1")).toBe("Address line 1 is required before submitting")
    expect(errorOf(early.text, "persons")).toBe("Add at least one person before submitting")
    expect(await acme.featureStatus()).toBe("CREATED")

    const saved = await acme.post("/entity-feature/save", { ...businessForm(acme, csrf), section: "business" })
    expect(saved.status, saved.text).toBe(303)
    expectPageHeaders(saved)
    const location = saved.headers.get("location") ?? ""
    expect(location).toMatch(/^\/entity-feature\?token=.*&notice=business#business$/)
    const after = await service.request("GET", location)
    expect(after.status).toBe(200)
    expect(visibleText(after.text)).toContain("Saved: business details.")
    expect(formField(after.text, "/entity-feature/save", "business_details.business_name")).toBe("Acme Trading LLC")
    expect((await acme.post("/entity-feature/save", addressForm(acme, csrf))).status).toBe(303)
    for (const name of ["Ada", "Temporary"]) {
      const added = await acme.post(
        "/entity-feature/save",
        personForm(acme.hosted, csrf, { first_name: name, last_name: "Lovelace", date_of_birth: "1990-12-10" }, [
          "director",
          "beneficial_owner",
        ]),
      )
      expect(added.status, added.text).toBe(303)
    }
    const stored = await acme.onboarding()
    expect(stored).toMatchObject({
      status: "draft",
      primary_contact_email: "ops@acme.example",
      business_details: {
        business_name: "Acme Trading LLC",
        business_name_trading: null,
        business_start_date: "2020-01-31",
        business_address: { line1: "1 Main Street", line2: null, city: "Springfield", country_alpha2: "US" },
      },
    })
    const [ada, temporary] = stored.persons as Array<{ id: string; roles: Array<string> }>
    expect(ada).toMatchObject({
      first_name: "Ada",
      date_of_birth: "1990-12-10",
      roles: ["director", "beneficial_owner"],
    })
    const edited = await acme.post(
      "/entity-feature/save",
      personForm(
        acme.hosted,
        csrf,
        { first_name: "Augusta Ada", last_name: "King", email: "" },
        ["legal_representative"],
        `person.${ada?.id}.`,
      ),
    )
    expect(edited.status, edited.text).toBe(303)
    const removed = await acme.post("/entity-feature/persons/remove", {
      token: acme.hosted,
      csrf,
      person_id: temporary?.id ?? "",
    })
    expect(removed.status).toBe(303)
    expect(visibleText((await service.request("GET", removed.headers.get("location") ?? "")).text)).toContain(
      "Saved: the person is removed.",
    )
    const persons = (await acme.onboarding()).persons
    expect(persons).toHaveLength(1)
    expect(persons[0]).toMatchObject({ first_name: "Augusta Ada", last_name: "King", roles: ["legal_representative"] })

    const issuedBefore = await acme.issue("onboarding")
    // Before the submission, the done page sends the person to the form.
    const notYetDone = await service.request("GET", `/entity-feature/done?token=${encodeURIComponent(acme.hosted)}`)
    expect(notYetDone.status).toBe(303)
    expect(notYetDone.headers.get("location")).toBe(`/entity-feature?token=${encodeURIComponent(acme.hosted)}`)
    const submitted = await acme.post("/entity-feature/submit", { token: acme.hosted, csrf })
    expect(submitted.status, submitted.text).toBe(303)
    expectPageHeaders(submitted)
    const done = submitted.headers.get("location") ?? ""
    expect(done).toMatch(/^\/entity-feature\/done\?token=/)
    const donePage = await service.request("GET", done)
    expect(donePage.status).toBe(200)
    expectPageHeaders(donePage)
    expect(visibleText(donePage.text)).toContain("Application submitted")
    expect(await acme.featureStatus()).toBe("SUBMITTED")
    expect((await acme.onboarding()).status).toBe("submitted")

    // The submission used the token up: its link opened again says the application is submitted; its forms answer the 401 page.
    const again = await acme.open()
    expect(again.status).toBe(200)
    expectPageHeaders(again)
    expect(visibleText(again.text)).toContain("This application was already submitted with this link")
    expect(visibleText(again.text)).not.toContain("This link cannot be used")
    expect((await acme.post("/entity-feature/save", businessForm(acme, csrf))).status).toBe(401)
    expect((await acme.post("/entity-feature/submit", { token: acme.hosted, csrf })).status).toBe(401)

    // Another token issued before the submission is not used up, but has nothing left to do.
    const other = await acme.open(issuedBefore)
    expect(other.status).toBe(409)
    expectPageHeaders(other)
    expect(visibleText(other.text)).toContain("Nothing to do here")
  })

  it("pending_action: shows what is stored, takes the information and submits again, then goes to the trusted return URL", async () => {
    const returnUrl = "https://app.initech.example/back?step=2"
    const acme = await client("hosted-ef-pending", returnUrl)
    const csrf = await acme.csrfOf()
    expect((await acme.open()).headers.get("content-security-policy")).toContain(
      "form-action 'self' https://app.initech.example;",
    )
    expect((await acme.post("/entity-feature/save", businessForm(acme, csrf))).status).toBe(303)
    expect((await acme.post("/entity-feature/save", addressForm(acme, csrf))).status).toBe(303)
    expect((await acme.post("/entity-feature/save", personForm(acme.hosted, csrf, { first_name: "Ada" }))).status).toBe(
      303,
    )
    const submitted = await acme.post("/entity-feature/submit", { token: acme.hosted, csrf })
    expect(submitted.status).toBe(303)
    expect(submitted.headers.get("location")).toBe(returnUrl)
    expectPageHeaders(submitted, "'self' https://app.initech.example")

    const moved = await service.request("POST", `/api/v1/sandbox/features/${acme.applicationId}/status`, {
      token: acme.token,
      body: { status: "ACTION_REQUIRED" },
    })
    expect(moved.status, moved.text).toBe(200)
    // The onboarding token was used up by the first submission (its page says so); the review asks for a new one.
    expect(visibleText((await acme.open()).text)).toContain("already submitted")
    const pending = await acme.issue("pending_action")
    const page = await acme.open(pending)
    expect(page.status, page.text).toBe(200)
    expectPageHeaders(page, "'self' https://app.initech.example")
    const text = visibleText(page.text)
    expect(text).toContain("More information needed")
    expect(text).toContain("more information is needed")
    expect(text).toContain("Submit again")
    expect(formField(page.text, "/entity-feature/save", "business_details.business_name")).toBe("Acme Trading LLC")
    expect(formField(page.text, "/entity-feature/save", "business_address.city")).toBe("Springfield")

    const pendingCsrf = await acme.csrfOf(pending)
    const corrected = await acme.post("/entity-feature/save", {
      ...businessForm(acme, pendingCsrf, { "business_details.business_name_trading": "Acme" }),
      token: pending,
    })
    expect(corrected.status).toBe(303)
    expect((await acme.onboarding()).business_details.business_name_trading).toBe("Acme")
    const again = await acme.post("/entity-feature/submit", { token: pending, csrf: pendingCsrf })
    expect(again.status).toBe(303)
    expect(again.headers.get("location")).toBe(returnUrl)
    expect(await acme.featureStatus()).toBe("SUBMITTED")
    expect((await acme.onboarding()).status).toBe("submitted")
    expect(visibleText((await acme.open(pending)).text)).toContain("already submitted")
  })

  it("never shows or changes another workspace's onboarding", async () => {
    const acme = await client("hosted-ef-tenancy")
    const other = await client("hosted-ef-tenancy-other")
    await other.api("PATCH", "/onboarding", { business_details: { business_name: "Secret Other Corp" } })
    const theirs = await other.api("POST", "/onboarding/persons", { first_name: "Hidden", last_name: "Person" })
    expect(theirs.status).toBe(201)
    const page = await acme.open()
    expect(page.text).not.toContain("Secret Other Corp")
    expect(page.text).not.toContain("Hidden")
    const csrf = await acme.csrfOf()
    for (const id of [theirs.body.data.id, "", "per_nothing", "x".repeat(5000)]) {
      const response = await acme.post("/entity-feature/persons/remove", { token: acme.hosted, csrf, person_id: id })
      expect(response.status).toBe(404)
      expectPageHeaders(response)
      expect(visibleText(response.text)).toContain("Person not found")
    }
    // Fields named after another workspace's person are no person of this page: nothing is saved.
    const saved = await acme.post(
      "/entity-feature/save",
      personForm(acme.hosted, csrf, { first_name: "Changed" }, [], `person.${theirs.body.data.id}.`),
    )
    expect(saved.status).toBe(303)
    expect((await other.onboarding()).persons).toMatchObject([{ id: theirs.body.data.id, first_name: "Hidden" }])
  })
})
