import { join } from "node:path"
import { setTimeout as delay } from "node:timers/promises"
import { openStorageFromUrl, sandboxExamples } from "@payments-engine/adapters"
import { kyselyStorageOf } from "@payments-engine/adapters/kysely"
import { CompanyId } from "@payments-engine/core"
import { describe, expect, it } from "vitest"
import type { LineWatcher } from "./support/child-process.ts"
import { paymentBody, quoteBody } from "./support/payment-fixtures.ts"
import { processRig } from "./support/process-rig.ts"
import { testJwtSecret } from "./support/test-service.ts"

/*
 * Keyed creates of every resource kind behind the Idempotency-Key middleware, sent at once to a
 * real service process that is killed with SIGKILL at a random moment, then started again on the
 * same database; every key is retried with its request: each retry is answered (not 409) within
 * 30 s of the restart, with the resource the first attempt made when that attempt was answered,
 * and each key made exactly one resource (counted through the API, quotes in the database, as the
 * API lists none).
 */

const { folder, running, serverUrl, postgresUrl, startRecordingService } = processRig("idempotency-crash")
const credentials = { api_key: "pk_idempotency_crash", api_secret: "sk_idempotency_crash_secret" }
/** Kills per database, and keys per resource kind in each round. */
const rounds = 4
const keysPerKind = 3
const crashRecoveryMs = 30_000
/** Past the old 60 s lock, so a run that breaks the bound also shows whether the retry ran twice. */
const giveUpMs = 65_000

const kinds = [
  "company",
  "entity",
  "recipient",
  "bankAccount",
  "quote",
  "fxQuote",
  "payment",
  "batch",
  "webhookEndpoint",
  "hostedPageToken",
] as const
type Kind = (typeof kinds)[number]

interface Answer {
  readonly status: number
  readonly body: { readonly data?: Record<string, unknown> } & Record<string, unknown>
}

interface KeyedRequest {
  readonly kind: Kind
  readonly key: string
  readonly path: string
  readonly body: unknown
}

/** The fields of created resources that the set-up reads. */
interface Created {
  readonly id: string
  readonly application_id: string
  readonly payment_profiles: ReadonlyArray<{ readonly id: string }>
}

/** What identifies the resource an answer made: its id, or the token itself (a token has no id). */
const madeBy = (request: KeyedRequest, answer: Answer): unknown =>
  request.kind === "hostedPageToken" ? answer.body.data?.token : answer.body.data?.id

const client = (url: string, token: string) => {
  const call = async (method: string, path: string, body?: unknown, key?: string): Promise<Answer> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...(key === undefined ? {} : { "Idempotency-Key": key }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? {} : JSON.parse(text) }
  }
  const created = async (path: string, body: unknown): Promise<Created> => {
    const answer = await call("POST", path, body)
    expect(answer.status, `POST ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300)
    return answer.body.data as unknown as Created
  }
  /** How many the list at `path` holds (webhook endpoints page with their own `meta`). */
  const total = async (path: string) => {
    const answer = await call("GET", `${path}?per_page=1`)
    expect(answer.status, `GET ${path}`).toBe(200)
    const meta = answer.body.meta as { total_records?: number; total_count?: number }
    return meta.total_records ?? meta.total_count ?? Number.NaN
  }
  return { call, created, total }
}

const signIn = async (url: string) => {
  const response = await fetch(`${url}/api/v1/sessions`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(credentials),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { access_token: string } }).data.access_token
}

/** The payer every keyed request acts in: a company with an entity, recipients, profiles in USD and EUR. */
const setUp = async (api: ReturnType<typeof client>) => {
  const cid = (await api.created("/api/v1/companies", { name: "Crash Inc", country: "US", default_currency: "USD" })).id
  const company = `/api/v1/companies/${cid}`
  const eid = (await api.created(`${company}/entities`, { name: "Crash Inc", country_alpha2: "US" })).id
  const rid = (await api.created(`${company}/recipients`, { name: "Supplier" })).id
  const accounts = `${company}/recipients/${rid}/bank_accounts`
  const profileOf = (account: Created) => account.payment_profiles[0]?.id ?? ""
  const account = async (details: unknown) =>
    profileOf(await api.created(accounts, { entity_id: eid, beneficiary_details: details }))
  const to = await account(sandboxExamples.US_ACH)
  const toEur = await account(sandboxExamples.DE_SWIFT)
  const from = profileOf(await api.created(`/api/v1/sandbox/entities/${eid}/funding_accounts`, {}))
  const feature = await api.created(`${company}/entities/${eid}/features`, {
    feature_identifier: "multi_currency_account",
  })
  for (const status of ["SUBMITTED", "ACTIVE"]) {
    await api.created(`/api/v1/sandbox/features/${feature.application_id}/status`, { status })
  }
  const keys = rounds * keysPerKind
  const entityCompanies: Array<string> = []
  const quotes: Array<string> = []
  for (let i = 0; i < keys; i++) {
    const other = await api.created("/api/v1/companies", { name: `Bare ${i}`, country: "US", default_currency: "USD" })
    entityCompanies.push(other.id)
    quotes.push((await api.created(`${company}/quotes`, quoteBody(from, to, 500 + i))).id)
  }
  return { cid, company, eid, rid, accounts, from, to, toEur, entityCompanies, quotes }
}

type Payer = Awaited<ReturnType<typeof setUp>>

/** The keyed request number `n` (from 0, across rounds) of a kind. */
const requestOf = (payer: Payer, kind: Kind, n: number, tag: string): KeyedRequest => {
  const key = `${tag}-${kind}-${n}`
  const at = (path: string, body: unknown) => ({ kind, key, path, body })
  switch (kind) {
    case "company":
      return at("/api/v1/companies", { name: `Keyed ${n}`, country: "US", default_currency: "USD" })
    case "entity":
      return at(`/api/v1/companies/${payer.entityCompanies[n]}/entities`, { name: "Keyed", country_alpha2: "US" })
    case "recipient":
      return at(`${payer.company}/recipients`, { name: `Keyed ${n}` })
    case "bankAccount":
      return at(payer.accounts, { entity_id: payer.eid, beneficiary_details: sandboxExamples.US_ACH })
    case "quote":
      return at(`${payer.company}/quotes`, quoteBody(payer.from, payer.to, 1000 + n))
    case "fxQuote":
      return at(`${payer.company}/quotes`, quoteBody(payer.from, payer.toEur, 1000 + n, "EUR"))
    case "payment":
      return at(`${payer.company}/payments`, paymentBody(payer.quotes[n] as string, key))
    case "batch":
      return at(`${payer.company}/payment_batches`, { payment_batch: { label: key } })
    case "webhookEndpoint":
      return at(`${payer.company}/webhook_endpoints`, {
        url: `http://localhost/hooks/${key}`,
        event_names: ["PaymentEvents::CompletedEvent"],
      })
    case "hostedPageToken":
      return at(`${payer.company}/entities/${payer.eid}/hosted_page_tokens`, {
        purpose: "recipient_add_bank_account",
        recipient_id: payer.rid,
      })
  }
}

const crashAndRetry = async (databaseUrl: string, tag: string) => {
  const env = {
    DATABASE_URL: databaseUrl,
    PAYMENTS_SANDBOX: "true",
    PAYMENTS_JWT_SECRET: testJwtSecret,
    PAYMENTS_API_KEY: credentials.api_key,
    PAYMENTS_API_SECRET: credentials.api_secret,
    PROVIDER_BOOK: join(folder, `book-${tag}.txt`),
    PAYMENTS_RATE_LIMIT_GENERAL: "100000",
    PAYMENTS_RATE_LIMIT_QUOTES: "100000",
    PAYMENTS_RATE_LIMIT_PAYMENTS: "100000",
    PAYMENTS_RATE_LIMIT_MULTI_CURRENCY: "100000",
  }
  const start = async () => {
    const service = await startRecordingService(env)
    const line = service.lines.find((l) => l.includes('"listening"')) as string
    return { service, url: (JSON.parse(line) as { url: string }).url }
  }
  const stop = async (service: LineWatcher, signal: NodeJS.Signals) => {
    service.child.kill(signal)
    await service.exited
    running.delete(service)
  }
  const began = Date.now()
  let { service, url } = await start()
  const token = await signIn(url)
  let api = client(url, token)
  const payer = await setUp(api)
  const baseline = {
    companies: await api.total("/api/v1/companies"),
    recipients: await api.total(`${payer.company}/recipients`),
    bankAccounts: await api.total(`${payer.company}/bank_accounts`),
  }
  const made = new Map<Kind, Array<unknown>>(kinds.map((kind) => [kind, []]))
  const unanswered: Array<string> = []
  const late: Array<string> = []
  const changedAnswers: Array<string> = []
  let crashedInFlight = 0

  for (let round = 0; round < rounds; round++) {
    const requests = kinds.flatMap((kind) =>
      Array.from({ length: keysPerKind }, (_, i) => requestOf(payer, kind, round * keysPerKind + i, tag)),
    )
    const firstAnswers = new Map<string, Answer>()
    // Killed somewhere in the burst, once some requests have been answered: others have then
    // committed without being answered, or not begun.
    const killAfter = 1 + Math.floor(Math.random() * (requests.length - 5))
    let answered: () => void = () => {}
    const enoughAnswered = new Promise<void>((resolve) => {
      answered = resolve
    })
    const sent = requests.map((request) =>
      api.call("POST", request.path, request.body, request.key).then(
        (answer) => {
          firstAnswers.set(request.key, answer)
          if (firstAnswers.size >= killAfter) answered()
        },
        () => undefined,
      ),
    )
    await Promise.race([enoughAnswered, Promise.all(sent)])
    await delay(Math.floor(Math.random() * 10))
    await stop(service, "SIGKILL")
    await Promise.all(sent)
    crashedInFlight += requests.length - firstAnswers.size
    ;({ service, url } = await start())
    const restarted = Date.now()
    api = client(url, token)
    await Promise.all(
      requests.map(async (request) => {
        let answer = await api.call("POST", request.path, request.body, request.key)
        // Asked past the bound, so that a run that breaks it shows what a later retry does too.
        while (answer.status === 409 && Date.now() - restarted < giveUpMs) {
          await delay(200)
          answer = await api.call("POST", request.path, request.body, request.key)
        }
        if (Date.now() - restarted >= crashRecoveryMs) late.push(request.key)
        if (answer.status !== 200 && answer.status !== 201) {
          unanswered.push(`${request.key}: ${answer.status} ${JSON.stringify(answer.body)}`)
          return
        }
        const first = firstAnswers.get(request.key)
        // An answer the client saw before the crash is the one every retry gets.
        if (first !== undefined && first.status < 300 && madeBy(request, answer) !== madeBy(request, first)) {
          changedAnswers.push(request.key)
        }
        made.get(request.kind)?.push(madeBy(request, answer))
      }),
    )
  }
  const keys = rounds * keysPerKind
  const sharedAnswers = kinds.filter((kind) => new Set(made.get(kind)).size !== made.get(kind)?.length)
  let entities = 0
  for (const cid of payer.entityCompanies) entities += await api.total(`/api/v1/companies/${cid}/entities`)
  // Exactly one resource a key: what the API lists grew by the keys, no more.
  const extra = {
    companies: (await api.total("/api/v1/companies")) - baseline.companies - keys,
    entities: entities - keys,
    recipients: (await api.total(`${payer.company}/recipients`)) - baseline.recipients - keys,
    bankAccounts: (await api.total(`${payer.company}/bank_accounts`)) - baseline.bankAccounts - keys,
    payments: (await api.total(`${payer.company}/payments`)) - keys,
    batches: (await api.total(`${payer.company}/payment_batches`)) - keys,
    webhookEndpoints: (await api.total(`${payer.company}/webhook_endpoints`)) - keys,
    // The payments' quotes, made before, and one per keyed quote of either kind; read in the database.
    quotes: 0,
  }
  await stop(service, "SIGTERM")
  const storage = kyselyStorageOf(await openStorageFromUrl(databaseUrl))
  try {
    const quotes = await storage.db
      .selectFrom("quotes")
      .select("id")
      .where("company_id", "=", CompanyId.make(payer.cid))
      .execute()
    extra.quotes = quotes.length - 3 * keys
  } finally {
    await storage.close()
  }
  const none = Object.fromEntries(Object.keys(extra).map((name) => [name, 0]))
  expect({ unanswered, late, changedAnswers, sharedAnswers, extra }).toEqual({
    unanswered: [],
    late: [],
    changedAnswers: [],
    sharedAnswers: [],
    extra: none,
  })
  return { crashedInFlight, seconds: Math.round((Date.now() - began) / 1000) }
}

describe("keyed creates of every resource kind, the service killed with SIGKILL at random moments", () => {
  it("on SQLite, each key makes one resource and every retry is answered within 30 s of the restart", async () => {
    const { crashedInFlight, seconds } = await crashAndRetry(`sqlite:${join(folder, "keys.sqlite")}`, "sqlite")
    console.info(`SQLite: ${crashedInFlight} keyed requests cut short by ${rounds} kills, ${seconds} s`)
  }, 420_000)

  it.skipIf(serverUrl === undefined)(
    "on Postgres, each key makes one resource and every retry is answered within 30 s of the restart",
    async () => {
      const { crashedInFlight, seconds } = await crashAndRetry(postgresUrl("keys"), "postgres")
      console.info(`Postgres: ${crashedInFlight} keyed requests cut short by ${rounds} kills, ${seconds} s`)
    },
    420_000,
  )
})
