// Uses the public API of every package as a TypeScript consumer would, so that the consumer's own
// strict tsc (no skipLibCheck, no allowImportingTsExtensions) checks the published declarations.
import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  openSqliteStorage,
  randomIds,
  scryptHasher,
  systemClock,
} from "@payments-engine/adapters"
import { type KyselyStorage, kyselyStorageOf } from "@payments-engine/adapters/kysely"
import { openTestSqlite } from "@payments-engine/adapters/testing"
import {
  createPaymentsClient,
  dataOf,
  eachItem,
  type PaymentsApiError,
  type PaymentsClient,
  verifyWebhook,
} from "@payments-engine/client"
import { type ContractReader, runContractSuite, testServerSecret } from "@payments-engine/contract-tests"
import { type Actor, type CompanyId, createEngine, type Engine, isDomainError } from "@payments-engine/core"
import { effectsOf } from "@payments-engine/core/effect"
import { bearerTokens, createApp, createServiceEngine, loadConfig } from "@payments-engine/http-koa"

export const embed = async (): Promise<Engine> => {
  const storage = await openSqliteStorage({ filename: ":memory:" })
  // The Kysely view of the same storage, for a program that queries the tables itself.
  const kysely: KyselyStorage = kyselyStorageOf(storage)
  await kysely.db.selectFrom("companies").select("id").execute()
  return createEngine({
    storage,
    clock: systemClock,
    ids: randomIds(),
    hasher: scryptHasher(),
    serverSecret: testServerSecret,
    paymentProvider: createSandboxPaymentProvider(),
    bankLinker: createSandboxBankLinker(),
  })
}

export const companyNames = async (engine: Engine, actor: Actor): Promise<string[]> => {
  try {
    const page = await engine.companies.list(actor, {})
    return page.data.map((company) => company.name)
  } catch (error) {
    if (isDomainError(error)) return error.errors.map((e) => `${e.field}: ${e.message}`)
    throw error
  }
}

// Bodies are typed from the request Schemas: a misspelt field is a compile error, not a 422 at run time.
export const typoInBody = (engine: Engine, actor: Actor, companyId: CompanyId) => [
  // @ts-expect-error nmae is not a field of a new recipient (and name is missing)
  engine.recipients.create(actor, companyId, { nmae: "Typo Ltd" }),
  // @ts-expect-error emial is not a field of a new recipient
  engine.recipients.create(actor, companyId, { name: "Typo Ltd", emial: "typo@example.com" }),
  engine.payments.create(actor, companyId, {
    // @ts-expect-error payment_quote is not a field of a payment instruction
    payment_instruction: { payment_quote: "pq_1", reason: "goods_purchased" },
  }),
  // @ts-expect-error sekonds is not a field of a test clock's advance
  engine.testClocks.advance(actor, { sekonds: 60 }),
  // The same use case as an effect (`@payments-engine/core/effect`), typed alike.
  // @ts-expect-error sekonds is not a field of a test clock's advance
  effectsOf(engine).testClocks.advance(actor, { sekonds: 60 }),
]

export const serve = async () => {
  const config = loadConfig({})
  const engine = createServiceEngine({
    storage: await openSqliteStorage({ filename: ":memory:" }),
    serverSecret: testServerSecret,
  })
  const tokens = bearerTokens({ secret: "a".repeat(32), confirm: (claims) => engine.access.tokenActor(claims) })
  return { config, app: createApp({ engine, tokens }) }
}

export const contractSuite = (reader: (storage: KyselyStorage) => ContractReader) => {
  const sqlite = openTestSqlite({ file: true })
  runContractSuite({ name: "sqlite", factory: sqlite.factory, teardown: sqlite.close, reader })
}

// The declarations are real types, not `any`: a wrong call is a type error.
// @ts-expect-error filename must be a string
export const refused = () => openSqliteStorage({ filename: 42 })

export const client: PaymentsClient = createPaymentsClient({
  baseUrl: "http://localhost:3000",
  apiKey: "k",
  apiSecret: "s",
})

export const recipientNames = async (cid: string): Promise<string[]> => {
  const names: string[] = []
  const page = (page: number) =>
    dataOf(client.GET("/api/v1/companies/{cid}/recipients", { params: { path: { cid }, query: { page } } }))
  for await (const recipient of eachItem(page)) names.push(recipient.name)
  return names
}

export const fieldsOf = (error: PaymentsApiError): string[] => error.errors.map((e) => e.field)

export const signed = (body: string, headers: Record<string, string>): Promise<boolean> =>
  verifyWebhook(body, headers, "secret")

export const misspelled = () =>
  client.POST("/api/v1/companies", {
    // @ts-expect-error default_curency is not a field of a new company
    body: { name: "Acme", country: "US", default_curency: "USD" },
  })
