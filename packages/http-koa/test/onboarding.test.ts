import type { KyselyStorage } from "@payments-engine/adapters/kysely"
import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signedInEntity } from "./support/entity-client.ts"
import { expectError, isoTimestamp } from "./support/expectations.ts"
import { expectDocumentedShape } from "./support/payment-fixtures.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

/**
 * An entity's onboarding and its persons over HTTP on a real socket, on SQLite and Postgres:
 * what a client sees (sections saved and merged, the spec's messages on dotted paths, a tax id
 * echoed once and masked after, the status following the feature, the 403s of an active
 * integration, tenancy), and that no stored row or remembered answer holds a tax id readable.
 */
const sqlite = openTestSqlite()
const postgres = openTestPostgres()
afterAll(async () => {
  await sqlite.close()
  await postgres.close()
})

const taxId = "123-45-6789"

describe.each([
  ["SQLite", () => sqlite.factory()],
  ["Postgres", () => postgres.factory()],
])("entity onboarding on %s", (_name, factory) => {
  let service: TestService
  let storage: KyselyStorage
  beforeAll(async () => {
    storage = (await factory()) as KyselyStorage
    service = await startTestService({ storage, sandbox: true })
  })
  afterAll(async () => {
    await service.close()
  })

  /** A workspace with one company and its US entity, signed in. */
  const client = async (workspace: string) => {
    const { token, cid, eid } = await signedInEntity(service, workspace)
    const base = `/api/v1/companies/${cid}/entities/${eid}/onboarding`
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      service.request(method, path, { token, headers, ...(body === undefined ? {} : { body }) })
    return {
      token,
      cid,
      eid,
      base,
      call,
      get: () => call("GET", base),
      patch: (body: unknown) => call("PATCH", base, body),
      createPerson: (body: unknown, headers: Record<string, string> = {}) =>
        call("POST", `${base}/persons`, body, headers),
    }
  }

  it("answers data null before anything is saved, then creates the record on the first PATCH and merges later ones", async () => {
    const c = await client("onboarding-sections")
    const empty = await c.get()
    expectDocumentedShape(service.routes, "getEntityOnboarding", empty)
    expect(empty.body).toEqual({ data: null })

    const first = await c.patch({
      business_details: {
        business_name: "Acme Holdings",
        business_start_date: "2019-02-28",
        website_url: "https://acme.test",
      },
      business_address: {
        line1: "1 Main St",
        city: "Springfield",
        state: "IL",
        postal_code: "62701",
        country_alpha2: "US",
      },
      business_identifiers: [{ identifier_type: "ein", identifier_number: "12-3456789", country_alpha2: "US" }],
      primary_contact: { email: "ops@acme.test", mobile: "5551234567", mobile_country_code: "+1" },
    })
    expect(first.status, first.text).toBe(200)
    expectDocumentedShape(service.routes, "updateEntityOnboarding", first)
    const data = first.body.data
    expect(data).toEqual({
      id: expect.stringMatching(/^onb_/),
      status: "draft",
      submitted_at: null,
      approved_at: null,
      created_at: isoTimestamp,
      updated_at: isoTimestamp,
      business_details: {
        id: expect.stringMatching(/^obd_/),
        business_name: "Acme Holdings",
        business_name_trading: null,
        business_structure: null,
        business_start_date: "2019-02-28",
        industry_category_code: null,
        description_of_goods_services: null,
        website_url: "https://acme.test",
        contact_phone: null,
        state_of_incorporation: null,
        created_at: isoTimestamp,
        updated_at: isoTimestamp,
        business_address: {
          id: expect.stringMatching(/^oad_/),
          address_type: "business",
          line1: "1 Main St",
          line2: null,
          city: "Springfield",
          state: "IL",
          postal_code: "62701",
          country_alpha2: "US",
          created_at: isoTimestamp,
          updated_at: isoTimestamp,
        },
        registration_address: null,
        business_identifiers: [
          {
            id: expect.stringMatching(/^bid_/),
            identifier_type: "ein",
            identifier_number: "12-3456789",
            country_alpha2: "US",
            created_at: isoTimestamp,
            updated_at: isoTimestamp,
          },
        ],
      },
      persons: [],
      primary_contact_email: "ops@acme.test",
      primary_contact_mobile: "5551234567",
      primary_contact_mobile_country_code: "+1",
    })
    expect((await c.get()).body).toEqual(first.body)

    // A later PATCH changes what it names: identifiers omitted stay, other sections stay.
    const second = await c.patch({
      business_details: { business_structure: "llc", website_url: null },
      registration_address: { line1: "2 Court Sq", line2: "Suite 5", city: "Dover", country_alpha2: "US" },
    })
    expect(second.status, second.text).toBe(200)
    const next = second.body.data
    expect(next.id).toBe(data.id)
    expect(next.business_details).toMatchObject({
      id: data.business_details.id,
      business_name: "Acme Holdings",
      business_structure: "llc",
      website_url: null,
      business_address: data.business_details.business_address,
      business_identifiers: data.business_details.business_identifiers,
      registration_address: {
        address_type: "registration",
        line1: "2 Court Sq",
        line2: "Suite 5",
        city: "Dover",
        state: null,
        postal_code: null,
        country_alpha2: "US",
      },
    })
    expect(next.primary_contact_email).toBe("ops@acme.test")

    // A given array replaces every identifier; an empty one removes them all.
    const replaced = await c.patch({ business_identifiers: [{ identifier_type: "vat", identifier_number: "GB123" }] })
    expect(replaced.body.data.business_details.business_identifiers).toEqual([
      expect.objectContaining({ identifier_type: "vat", identifier_number: "GB123", country_alpha2: null }),
    ])
    expect(replaced.body.data.business_details.business_identifiers[0].id).not.toBe(
      data.business_details.business_identifiers[0].id,
    )
    const cleared = await c.patch({ business_identifiers: [] })
    expect(cleared.body.data.business_details.business_identifiers).toEqual([])
  })

  it("refuses bad input with 422 on each dotted path, and writes nothing", async () => {
    const c = await client("onboarding-invalid")
    const refuse = async (body: unknown, field: string, message: string) => {
      const response = await c.patch(body)
      expectError(response, 422, field, message)
    }
    await refuse(
      { business_details: { business_name: "x".repeat(256) } },
      "business_details.business_name",
      "is too long (maximum is 255 characters)",
    )
    await refuse(
      { business_details: { business_start_date: "2023-02-30" } },
      "business_details.business_start_date",
      "must be a date in the format YYYY-MM-DD",
    )
    await refuse(
      { business_details: { business_start_date: "20230101" } },
      "business_details.business_start_date",
      "must be a date in the format YYYY-MM-DD",
    )
    await refuse(
      { business_address: { country_alpha2: "XX" } },
      "business_address.country_alpha2",
      "must be an ISO 3166-1 alpha-2 country code",
    )
    await refuse(
      { business_identifiers: [{ identifier_type: "tin", identifier_number: "1" }] },
      "business_identifiers.0.identifier_type",
      "must be one of: ein, vat, brn, ssn",
    )
    await refuse(
      { business_details: { website_url: "javascript:alert(1)" } },
      "business_details.website_url",
      "must be an http or https URL",
    )
    await refuse(
      { primary_contact: { email: "not an address" } },
      "primary_contact.email",
      "must be a valid e-mail address",
    )
    await refuse({ business_details: { business_name: 7 } }, "business_details.business_name", "must be a string")
    await refuse({ business_details: "Acme" }, "business_details", "must be an object")
    const missing = await c.patch({ business_identifiers: [{ identifier_type: "ein" }] })
    expectError(missing, 400, "business_identifiers.0.identifier_number", "Identifier number is required")
    // Every field at once, and nothing half-written.
    const both = await c.patch({
      business_details: { business_name: "Fine", business_start_date: "never" },
      registration_address: { country_alpha2: "usa" },
    })
    expect(both.status).toBe(422)
    expect(both.body.errors.map((e: { field: string }) => e.field)).toEqual([
      "business_details.business_start_date",
      "registration_address.country_alpha2",
    ])
    expect((await c.get()).body).toEqual({ data: null })
  })

  it("adds persons: a tax id echoed once, masked on every read, sealed at rest; list, PATCH and DELETE", async () => {
    const c = await client("onboarding-persons")
    const created = await c.createPerson({
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@acme.test",
      date_of_birth: "1990-12-10",
      nationality: "GB",
      roles: ["director", "beneficial_owner", "director"],
      residential_address: {
        line1: "3 Elm St",
        city: "Boston",
        state: "MA",
        postal_code: "02110",
        country_alpha2: "US",
      },
      identifications: [
        { identification_type: "tax_id", identification_number: taxId, tax_id_type: "ssn", is_primary: true },
        {
          identification_type: "passport",
          identification_number: "P1234567",
          issuing_country: "GB",
          expiration_date: "2031-01-01",
        },
      ],
    })
    expect(created.status, created.text).toBe(201)
    expectDocumentedShape(service.routes, "createOnboardingPerson", created)
    const person = created.body.data
    expect(person).toEqual({
      id: expect.stringMatching(/^per_/),
      first_name: "Ada",
      middle_name: null,
      last_name: "Lovelace",
      email: "ada@acme.test",
      phone_number: null,
      date_of_birth: "1990-12-10",
      nationality: "GB",
      job_title: null,
      roles: ["director", "beneficial_owner"],
      created_at: isoTimestamp,
      updated_at: isoTimestamp,
      residential_address: expect.objectContaining({ address_type: "residential", line1: "3 Elm St", line2: null }),
      identifications: [
        {
          id: expect.stringMatching(/^pid_/),
          identification_type: "tax_id",
          identification_number: taxId,
          issuing_country: null,
          effective_date: null,
          expiration_date: null,
          is_primary: true,
          tax_id_type: "ssn",
          created_at: isoTimestamp,
          updated_at: isoTimestamp,
        },
        expect.objectContaining({
          identification_type: "passport",
          identification_number: "P1234567",
          is_primary: false,
        }),
      ],
    })
    const masked = {
      ...person,
      identifications: [{ ...person.identifications[0], identification_number: "****6789" }, person.identifications[1]],
    }
    const got = await c.call("GET", `${c.base}/persons/${person.id}`)
    expectDocumentedShape(service.routes, "getOnboardingPerson", got)
    expect(got.body.data).toEqual(masked)
    const listed = await c.call("GET", `${c.base}/persons`)
    expectDocumentedShape(service.routes, "listOnboardingPersons", listed)
    expect(listed.body.data).toEqual([masked])
    expect(listed.body.meta).toMatchObject({ total_records: 1 })
    expect(listed.body.links).toBeDefined()
    const onboarding = await c.get()
    expect(onboarding.body).toEqual({ data: null })
    await c.patch({ business_details: { business_name: "Acme" } })
    expect((await c.get()).body.data.persons).toEqual([masked])
    for (const read of [got, listed, await c.get()]) expect(read.text).not.toContain("45-6789")

    // At rest: neither the number nor its digits in clear; a sealed text and the last four.
    const row = await storage.db
      .selectFrom("onboarding_persons" as never)
      .selectAll()
      .where("id" as never, "=", person.id as never)
      .executeTakeFirstOrThrow()
    const dump = JSON.stringify(row)
    expect(dump).not.toContain(taxId)
    expect(dump).not.toContain("123456789")
    expect(dump).not.toContain("45-67")
    expect(dump).toMatch(/aes-256-gcm:[0-9a-f]{8}:[\w-]+:[\w-]+/)

    const updated = await c.call("PATCH", `${c.base}/persons/${person.id}`, { job_title: "CEO", middle_name: "King" })
    expect(updated.status, updated.text).toBe(200)
    expectDocumentedShape(service.routes, "updateOnboardingPerson", updated)
    expect(updated.body.data).toEqual({ ...masked, job_title: "CEO", middle_name: "King", updated_at: isoTimestamp })

    const deleted = await c.call("DELETE", `${c.base}/persons/${person.id}`)
    expect(deleted.status).toBe(204)
    expectError(
      await c.call("GET", `${c.base}/persons/${person.id}`),
      404,
      "id",
      "Person not found or not accessible in this entity",
    )
    expectError(
      await c.call("DELETE", `${c.base}/persons/${person.id}`),
      404,
      "id",
      "Person not found or not accessible in this entity",
    )
    expect((await c.call("GET", `${c.base}/persons`)).body.data).toEqual([])
  })

  it("creates a person with no fields, and refuses bad roles, long names and bad identifications", async () => {
    const c = await client("onboarding-person-invalid")
    const bare = await c.createPerson({})
    expect(bare.status, bare.text).toBe(201)
    expect(bare.body.data).toMatchObject({
      first_name: null,
      roles: [],
      identifications: [],
      residential_address: null,
    })
    expectError(
      await c.createPerson({ roles: ["director", "ceo", "owner", "ceo"] }),
      422,
      "roles",
      "contains invalid values: ceo, owner",
    )
    expectError(
      await c.createPerson({ first_name: "x".repeat(101) }),
      422,
      "first_name",
      "is too long (maximum is 100 characters)",
    )
    expectError(
      await c.createPerson({ last_name: "x".repeat(101) }),
      422,
      "last_name",
      "is too long (maximum is 100 characters)",
    )
    expectError(
      await c.createPerson({ identifications: [{ identification_type: "visa", identification_number: "1" }] }),
      422,
      "identifications.0.identification_type",
      "must be one of: passport, drivers_license, tax_id",
    )
    expectError(
      await c.createPerson({ identifications: [{ identification_type: "passport" }] }),
      400,
      "identifications.0.identification_number",
      "Identification number is required",
    )
    expectError(
      await c.createPerson({ date_of_birth: "1990-02-29" }),
      422,
      "date_of_birth",
      "must be a date in the format YYYY-MM-DD",
    )
    expectError(
      await c.createPerson({ nationality: "gb" }),
      422,
      "nationality",
      "must be an ISO 3166-1 alpha-2 country code",
    )
    expect((await c.call("GET", `${c.base}/persons`)).body.meta.total_records).toBe(1)
  })

  it("replays a person create by Idempotency-Key with its tax id, while the remembered answer holds it sealed", async () => {
    const c = await client("onboarding-idempotent")
    const body = {
      first_name: "Grace",
      identifications: [{ identification_type: "tax_id", identification_number: taxId }],
    }
    const first = await c.createPerson(body, { "Idempotency-Key": "person-1" })
    expect(first.status, first.text).toBe(201)
    const again = await c.createPerson(body, { "Idempotency-Key": "person-1" })
    expect(again.status).toBe(201)
    expect(again.headers.get("Idempotent-Replayed")).toBe("true")
    expect(again.body).toEqual(first.body)
    expect(again.body.data.identifications[0].identification_number).toBe(taxId)
    expect((await c.call("GET", `${c.base}/persons`)).body.meta.total_records).toBe(1)
    const records = await storage.db
      .selectFrom("idempotency_records")
      .selectAll()
      .where("key", "=", "person-1")
      .execute()
    expect(records).toHaveLength(1)
    expect(JSON.stringify(records)).not.toContain("6789")
    expect(JSON.parse(records[0]!.response_body!).data.identifications[0].identification_number).toEqual({
      $sealed: expect.stringMatching(/^aes-256-gcm:/),
    })
    // PATCH of the onboarding honours the key too.
    const patch = () =>
      c.call("PATCH", c.base, { business_details: { business_name: "Once" } }, { "Idempotency-Key": "onb-1" })
    const saved = await patch()
    expect(saved.status).toBe(200)
    const replayed = await patch()
    expect(replayed.headers.get("Idempotent-Replayed")).toBe("true")
    expect(replayed.body).toEqual(saved.body)
  })

  it("follows the feature: draft, submitted, action_required, submitted, approved; then refuses changes with 403", async () => {
    const c = await client("onboarding-status")
    const feature = await c.call("POST", `/api/v1/companies/${c.cid}/entities/${c.eid}/features`, {
      feature_identifier: "multi_currency_account",
    })
    expect(feature.status, feature.text).toBe(201)
    const app = feature.body.data.application_id as string
    const move = async (status: string) => {
      const moved = await c.call("POST", `/api/v1/sandbox/features/${app}/status`, { status })
      expect(moved.status, moved.text).toBe(200)
    }
    const saved = await c.patch({ business_details: { business_name: "Acme" } })
    expect(saved.body.data).toMatchObject({ status: "draft", submitted_at: null, approved_at: null })
    const person = (await c.createPerson({ first_name: "Ada" })).body.data

    await move("SUBMITTED")
    const submitted = (await c.get()).body.data
    expect(submitted).toMatchObject({ status: "submitted", submitted_at: isoTimestamp, approved_at: null })
    await move("ACTION_REQUIRED")
    expect((await c.get()).body.data).toMatchObject({ status: "action_required", approved_at: null })
    await move("SUBMITTED")
    expect((await c.get()).body.data).toMatchObject({ status: "submitted", submitted_at: isoTimestamp })
    await move("ACTIVE")
    const approved = (await c.get()).body.data
    expect(approved).toMatchObject({ status: "approved", submitted_at: isoTimestamp, approved_at: isoTimestamp })

    const update = "Cannot update onboarding for entity with active payment integration"
    const modify = "Cannot modify onboarding for entity with active payment integration"
    expectError(await c.patch({ business_details: { business_name: "Changed" } }), 403, "base", update)
    expectError(await c.createPerson({ first_name: "Bob" }), 403, "base", modify)
    expectError(await c.call("PATCH", `${c.base}/persons/${person.id}`, { first_name: "Bob" }), 403, "base", modify)
    expectError(await c.call("DELETE", `${c.base}/persons/${person.id}`), 403, "base", modify)
    // Reads still work, and nothing changed.
    expect((await c.get()).body.data).toEqual(approved)
    expect((await c.call("GET", `${c.base}/persons`)).body.meta.total_records).toBe(1)
  })

  it("takes the feature's status when first saved after the feature moved", async () => {
    const c = await client("onboarding-late")
    const feature = await c.call("POST", `/api/v1/companies/${c.cid}/entities/${c.eid}/features`, {
      feature_identifier: "multi_currency_account",
    })
    const app = feature.body.data.application_id as string
    await c.call("POST", `/api/v1/sandbox/features/${app}/status`, { status: "SUBMITTED" })
    const saved = await c.patch({ primary_contact: { email: "late@acme.test" } })
    expect(saved.body.data).toMatchObject({ status: "submitted", submitted_at: isoTimestamp, approved_at: null })
  })

  it("answers 404 for another company's entity and another entity's person, everywhere", async () => {
    const owner = await client("onboarding-owner")
    const person = (await owner.createPerson({ first_name: "Ada" })).body.data
    await owner.patch({ business_details: { business_name: "Mine" } })
    const stranger = await client("onboarding-stranger")
    const entityNotFound = "Entity not found or not accessible in this company"
    const companyNotFound = "Company not found or not accessible in this workspace"
    // The owner's company from another workspace.
    const foreign = owner.base
    for (const [method, path, body] of [
      ["GET", foreign, undefined],
      ["PATCH", foreign, { business_details: { business_name: "Theirs" } }],
      ["GET", `${foreign}/persons`, undefined],
      ["POST", `${foreign}/persons`, { first_name: "Eve" }],
      ["GET", `${foreign}/persons/${person.id}`, undefined],
      ["PATCH", `${foreign}/persons/${person.id}`, { first_name: "Eve" }],
      ["DELETE", `${foreign}/persons/${person.id}`, undefined],
    ] as const) {
      expectError(await stranger.call(method, path, body), 404, "company_id", companyNotFound)
    }
    // The owner's entity under the stranger's own company.
    const mixed = `/api/v1/companies/${stranger.cid}/entities/${owner.eid}/onboarding`
    expectError(await stranger.call("GET", mixed), 404, "entity_id", entityNotFound)
    expectError(await stranger.call("POST", `${mixed}/persons`, {}), 404, "entity_id", entityNotFound)
    // The owner's person under the stranger's entity.
    const personNotFound = "Person not found or not accessible in this entity"
    expectError(await stranger.call("GET", `${stranger.base}/persons/${person.id}`), 404, "id", personNotFound)
    expectError(await stranger.call("PATCH", `${stranger.base}/persons/${person.id}`, {}), 404, "id", personNotFound)
    expectError(await stranger.call("DELETE", `${stranger.base}/persons/${person.id}`), 404, "id", personNotFound)
    expect((await stranger.get()).body).toEqual({ data: null })
    expect((await owner.get()).body.data.business_details.business_name).toBe("Mine")
    expect((await owner.call("GET", `${owner.base}/persons/${person.id}`)).body.data.first_name).toBe("Ada")
  })
})
