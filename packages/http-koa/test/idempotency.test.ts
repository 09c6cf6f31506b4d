import { sandboxExamples } from "@payments-engine/adapters"
import { openTestSqlite } from "@payments-engine/adapters/testing"
import { canonicalJson, deriveFingerprintKey, type Engine, requestFingerprint } from "@payments-engine/core"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { expectError } from "./support/expectations.ts"
import { acme, startTestService, type TestService, testJwtSecret } from "./support/test-service.ts"

const memory = openTestSqlite()
const files = openTestSqlite({ file: true })
afterAll(async () => {
  await memory.close()
  await files.close()
})

const mismatch = "Idempotency key reused with different parameters"

/** A promise and the function that settles it, to hold a request inside the engine. */
const latch = () => {
  let open: () => void = () => undefined
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { open, opened }
}

describe.each([
  ["SQLite in memory", memory],
  ["SQLite on a file", files],
])("Idempotency-Key on %s", (_name, source) => {
  let service: TestService
  afterEach(() => service.close())

  const start = async (wrapEngine?: (engine: Engine) => Engine) => {
    service = await startTestService({ storage: await source.factory(), ...(wrapEngine ? { wrapEngine } : {}) })
    return service.signIn("acme")
  }
  const createCompany = (token: string, key: string, body: unknown = acme) =>
    service.request("POST", "/api/v1/companies", { token, body, headers: { "Idempotency-Key": key } })
  const count = async (token: string) =>
    (await service.request("GET", "/api/v1/companies", { token })).body.meta.total_records as number

  it("replays the first response for the same request and creates nothing twice", async () => {
    const token = await start()
    const first = await createCompany(token, "k-1")
    expect(first.status).toBe(201)
    expect(first.headers.get("idempotent-replayed")).toBeNull()
    const again = await createCompany(token, "k-1")
    expect(again.status).toBe(201)
    expect(again.body).toEqual(first.body)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    const reordered = await service.request("POST", "/api/v1/companies", {
      token,
      raw: ' { "default_currency" : "USD", "country": "US",\n "name": "Acme Inc" } ',
      headers: { "Content-Type": "application/json", "Idempotency-Key": "k-1" },
    })
    expect(reordered.status).toBe(201)
    expect(reordered.body).toEqual(first.body)
    expect(await count(token)).toBe(1)
  })

  it("refuses the key with another body or path: 422", async () => {
    const token = await start()
    expect((await createCompany(token, "k-2")).status).toBe(201)
    expectError(await createCompany(token, "k-2", { ...acme, name: "Other" }), 422, "Idempotency-Key", mismatch)
    const cid = (await service.request("GET", "/api/v1/companies", { token })).body.data[0].id
    const elsewhere = await service.request("POST", `/api/v1/companies/${cid}/recipients`, {
      token,
      body: acme,
      headers: { "Idempotency-Key": "k-2" },
    })
    expectError(elsewhere, 422, "Idempotency-Key", mismatch)
    expect(await count(token)).toBe(1)
  })

  it("replays error answers below 500 too, and works for PATCH and entity create", async () => {
    const token = await start()
    const invalid = await createCompany(token, "k-3", { name: "Acme" })
    expect(invalid.status).toBe(400)
    const invalidAgain = await createCompany(token, "k-3", { name: "Acme" })
    expect(invalidAgain.status).toBe(400)
    expect(invalidAgain.body).toEqual(invalid.body)
    expect(invalidAgain.headers.get("idempotent-replayed")).toBe("true")

    const cid = (await createCompany(token, "k-4")).body.data.id
    const patch = (key: string, name: string) =>
      service.request("PATCH", `/api/v1/companies/${cid}`, {
        token,
        body: { name },
        headers: { "Idempotency-Key": key },
      })
    const renamed = await patch("k-5", "First")
    await patch("k-6", "Second")
    const replayed = await patch("k-5", "First")
    expect(replayed.body).toEqual(renamed.body)
    expect(replayed.headers.get("idempotent-replayed")).toBe("true")

    const entity = (key: string) =>
      service.request("POST", `/api/v1/companies/${cid}/entities`, {
        token,
        body: { name: "Acme US", country_alpha2: "US" },
        headers: { "Idempotency-Key": key },
      })
    const created = await entity("k-7")
    expect(created.status).toBe(201)
    const retried = await entity("k-7")
    expect(retried.status).toBe(201)
    expect(retried.body).toEqual(created.body)
    expectError(await entity("k-8"), 422, "name", "has already been taken")
  })

  it("scopes keys to the workspace and checks their length", async () => {
    const token = await start()
    const other = await service.signIn("globex")
    expect((await createCompany(token, "shared")).status).toBe(201)
    const theirs = await createCompany(other, "shared", { ...acme, name: "Globex" })
    expect(theirs.status).toBe(201)
    expect(theirs.headers.get("idempotent-replayed")).toBeNull()
    const length = "must be between 1 and 255 characters"
    expectError(await createCompany(token, "x".repeat(256)), 400, "Idempotency-Key", length)
    expectError(await createCompany(token, ""), 400, "Idempotency-Key", length)
    expect((await createCompany(token, "x".repeat(255))).status).toBe(201)
  })

  it("answers 409 while the first request with the key still runs", async () => {
    const entered = latch()
    const release = latch()
    const token = await start((engine) => ({
      ...engine,
      companies: {
        ...engine.companies,
        create: async (...args: Parameters<Engine["companies"]["create"]>) => {
          entered.open()
          await release.opened
          return engine.companies.create(...args)
        },
      },
    }))
    const first = createCompany(token, "k-slow")
    await entered.opened
    expectError(
      await createCompany(token, "k-slow"),
      409,
      "Idempotency-Key",
      "A request with this idempotency key is in progress",
    )
    release.open()
    expect((await first).status).toBe(201)
    const replay = await createCompany(token, "k-slow")
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(await count(token)).toBe(1)
  })

  it("lets concurrent requests with one key create one company", async () => {
    const token = await start()
    const answers = await Promise.all(Array.from({ length: 5 }, () => createCompany(token, "k-race")))
    const created = answers.filter((a) => a.status === 201 && a.headers.get("idempotent-replayed") === null)
    expect(created).toHaveLength(1)
    for (const answer of answers) {
      if (answer.status === 201) expect(answer.body).toEqual(created[0]?.body)
      else expectError(answer, 409, "Idempotency-Key", "A request with this idempotency key is in progress")
    }
    expect(await count(token)).toBe(1)
  })

  it("forgets a key after 24 hours", async () => {
    let token = await start()
    expect((await createCompany(token, "k-day")).status).toBe(201)
    service.clock.advance(24 * 60 * 60 * 1000 - 1)
    token = await service.signIn("acme")
    expectError(await createCompany(token, "k-day", { ...acme, name: "Later" }), 422, "Idempotency-Key", mismatch)
    service.clock.advance(1)
    const fresh = await createCompany(token, "k-day", { ...acme, name: "Later" })
    expect(fresh.status).toBe(201)
    expect(fresh.headers.get("idempotent-replayed")).toBeNull()
    expect(await count(token)).toBe(2)
  })

  it("frees the key after a 500, so a retry runs again", async () => {
    let failures = 1
    const token = await start((engine) => ({
      ...engine,
      companies: {
        ...engine.companies,
        create: (...args: Parameters<Engine["companies"]["create"]>) =>
          failures-- > 0 ? Promise.reject(new Error("database on fire")) : engine.companies.create(...args),
      },
    }))
    expectError(await createCompany(token, "k-500"), 500, "base", "Internal server error")
    const retry = await createCompany(token, "k-500")
    expect(retry.status).toBe(201)
    expect(retry.headers.get("idempotent-replayed")).toBeNull()
    expect(await count(token)).toBe(1)
  })

  it("ignores the header on GET and DELETE", async () => {
    const token = await start()
    const cid = (await createCompany(token, "k-9")).body.data.id
    const headers = { "Idempotency-Key": "k-9" }
    expect((await service.request("GET", `/api/v1/companies/${cid}`, { token, headers })).status).toBe(200)
    expect((await service.request("DELETE", `/api/v1/companies/${cid}`, { token, headers })).status).toBe(200)
  })
})

describe("Idempotency-Key fingerprints against a reader of the database", () => {
  let service: TestService
  afterEach(() => service.close())

  const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("")
  /** ISO 13616 check digits of a German IBAN, the textbook way. */
  const germanIban = (bban: string) => {
    const check = 98n - (BigInt(`${bban}131400`) % 97n)
    return `DE${check.toString().padStart(2, "0")}${bban}`
  }

  it("cannot be matched by hashing guessed account numbers beside the stored mask without the server secret", async () => {
    service = await startTestService({ storage: await files.factory() })
    const token = await service.signIn("acme")
    const workspaceId = (await service.engine.access.ensureWorkspace("acme")).id
    const ok = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await service.request("POST", path, { token, body, headers })
      expect(response.status, response.text).toBe(201)
      return response.body.data
    }
    const cid = (await ok("/api/v1/companies", acme)).id
    const eid = (await ok(`/api/v1/companies/${cid}/entities`, { name: "Acme Inc", country_alpha2: "US" })).id
    const rid = (await ok(`/api/v1/companies/${cid}/recipients`, { name: "Jane Supplier" })).id
    const path = `/api/v1/companies/${cid}/recipients/${rid}/bank_accounts`
    const details = sandboxExamples.DE_SEPA
    const account = await ok(path, { entity_id: eid, beneficiary_details: details }, { "Idempotency-Key": "fp-1" })
    const real = details.bank_details.account_number // DE89 37040044 05 3201 3000
    expect(account.account_details[0].account_number_mask).toBe("****3000")
    const stored = (await service.storage.transaction((tx) => tx.idempotency.find(workspaceId, "fp-1")))!.fingerprint

    // What the reader knows: the request but its account number, the bank code, and the mask;
    // the four digits before the mask and the check digits are guessed: 10,000 valid IBANs.
    const bodyWith = (iban: string) => ({
      entity_id: eid,
      beneficiary_details: { ...details, bank_details: { ...details.bank_details, account_number: iban } },
    })
    const guesses = Array.from({ length: 10_000 }, (_, n) => germanIban(`3704004405${String(n).padStart(4, "0")}3000`))
    expect(guesses).toContain(real)
    const text = (iban: string) => new TextEncoder().encode(`POST\n${path}\n${canonicalJson(bodyWith(iban))}`)

    const unkeyed = await Promise.all(
      guesses.map(async (iban) => hex(await crypto.subtle.digest("SHA-256", text(iban)))),
    )
    expect(unkeyed.filter((digest) => stored.includes(digest))).toEqual([])

    // With the server secret the same guesses find the number: the stored fingerprint is of this body.
    const key = await deriveFingerprintKey(testJwtSecret)
    const keyed = await Promise.all(
      guesses.map(async (iban) => ({
        iban,
        fingerprint: await requestFingerprint(key, { method: "POST", path, body: bodyWith(iban) }),
      })),
    )
    expect(keyed.filter(({ fingerprint }) => fingerprint === stored).map(({ iban }) => iban)).toEqual([real])
  })
})
