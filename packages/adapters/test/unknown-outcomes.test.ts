import { testServerSecret } from "@payments-engine/contract-tests"
import { createEngine, type Engine, type PaymentId } from "@payments-engine/core"
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  type KyselyStorage,
  randomIds,
  type SandboxPaymentProvider,
  sandboxFailureReason,
  scryptHasher,
  TestClock,
} from "../src/index.ts"
import { openTestPostgres, openTestSqlite, type Payer, paymentRequest, setUpPayer } from "../src/testing/index.ts"

/*
 * Issue 9, item 7: a payment whose provider call ended without an answer (a lost answer, a crash)
 * is settled from what the provider says of it, asked by our payment id, instead of being
 * submitted again. Through the engine, on a SQLite file (embedded runner) and on Postgres
 * (graphile-worker on a server, the embedded runner on PGlite), with the sandbox provider and the
 * engine's test clock.
 */
const sqlite = openTestSqlite({ file: true })
const postgres = openTestPostgres()
afterAll(async () => {
  await sqlite.close()
  await postgres.close()
})

/** Past the next retry of a failed job on both runners (embedded: at most 125 s; graphile-worker: e^4 s). */
const pastRetry = 130_000

describe.each([
  ["SQLite", () => sqlite.factory()],
  [`Postgres (${postgres.kind})`, () => postgres.factory()],
])("unknown outcomes on %s", (_name, factory) => {
  let storage: KyselyStorage
  let clock: TestClock
  let provider: SandboxPaymentProvider
  let engine: Engine
  let payer: Payer

  /** The engine, with `wrap` between it and the sandbox provider if given. */
  const engineWith = (wrap?: (sandbox: SandboxPaymentProvider) => SandboxPaymentProvider) =>
    createEngine({
      storage,
      clock,
      ids: randomIds({ clock }),
      hasher: scryptHasher({ cost: 2 ** 10 }),
      serverSecret: testServerSecret,
      paymentProvider: wrap === undefined ? provider : wrap(provider),
      bankLinker: createSandboxBankLinker(),
    })

  beforeEach(async () => {
    storage = await factory()
    clock = new TestClock(new Date("2030-03-04T10:00:00.000Z"))
    provider = createSandboxPaymentProvider()
    engine = engineWith()
    payer = await setUpPayer(engine, "unknown-outcomes")
  })
  afterEach(() => engine.close())

  const pay = async (amount: number, key: string): Promise<PaymentId> => {
    const quote = await engine.quotes.create(payer.actor, payer.companyId, {
      quote: {
        from_profile_id: payer.fromProfileId,
        to_profile_id: payer.toProfileId,
        instructed_amount: { amount, currency: "USD" },
      },
    })
    return (await engine.payments.create(payer.actor, payer.companyId, paymentRequest(quote.id, 0, key))).payment.id
  }
  /** The stored row, read straight from the database. */
  const stored = (id: PaymentId) =>
    storage.db.selectFrom("payments").selectAll().where("id", "=", id).executeTakeFirst()
  const paymentEvents = async () =>
    (
      await storage.db
        .selectFrom("events")
        .select(["event", "resource_id"])
        .where("company_id", "=", payer.companyId)
        .where("event", "like", "PaymentEvents::%")
        .orderBy("id")
        .execute()
    ).map((e) => `${e.event} ${e.resource_id}`)

  it("a retry after a lost answer settles the payment from the provider's answer, without submitting it again", async () => {
    provider.failNext("submitPayment", new Error("connection reset"), "after")
    provider.failNext("submitPayment", new Error("connection reset"), "after")
    const good = await pay(100, "lost-1")
    const bad = await pay(10.13, "lost-2")
    expect(await engine.jobs.runDue()).toEqual({ ran: 2, failed: 2 })
    expect([(await stored(good))?.status, (await stored(bad))?.status]).toEqual(["processing", "processing"])
    const outcomes = new Map(provider.submittedPayments().map((p) => [p.paymentId, p.outcome]))
    expect([...outcomes.keys()]).toEqual([good, bad])

    // From now on the provider refuses every submission: only an answer from findPayment settles them.
    provider.setFailure("submitPayment", true)
    clock.advance(pastRetry)
    expect(await engine.jobs.runDue()).toEqual({ ran: 2, failed: 0 })
    expect(await stored(good)).toMatchObject({
      status: "completed",
      provider_payment_id: outcomes.get(good)!.providerPaymentId,
      failure_reason: null,
    })
    expect(await stored(bad)).toMatchObject({
      status: "failed",
      provider_payment_id: outcomes.get(bad)!.providerPaymentId,
      failure_reason: sandboxFailureReason,
    })
    expect(provider.submittedPayments()).toHaveLength(2)
    expect(await paymentEvents()).toEqual([
      `PaymentEvents::CompletedEvent ${good}`,
      `PaymentEvents::FailedEvent ${bad}`,
    ])
  })

  it("a retry the provider cannot answer is retried; one it never received is submitted again", async () => {
    provider.failNext("submitPayment", new Error("timeout"))
    const id = await pay(100, "retried")
    expect(await engine.jobs.runDue()).toEqual({ ran: 1, failed: 1 })
    provider.failNext("findPayment", new Error("timeout"))
    clock.advance(pastRetry)
    expect(await engine.jobs.runDue()).toEqual({ ran: 1, failed: 1 })
    expect(provider.submittedPayments()).toEqual([])
    clock.advance(pastRetry)
    expect(await engine.jobs.runDue()).toEqual({ ran: 1, failed: 0 })
    expect((await stored(id))?.status).toBe("completed")
    expect(provider.submittedPayments().map((p) => p.paymentId)).toEqual([id])
  })
})
