import { testServerSecret } from "@payments-engine/contract-tests"
import {
  createEngine,
  createJobHandlers,
  type Engine,
  type EngineOptions,
  JobId,
  notReceivedByProvider,
  type PaymentId,
  type PaymentOutcome,
  unknownOutcomeAfterMs,
} from "@payments-engine/core"
import { maxJobAttempts } from "@payments-engine/core/effect"
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest"
import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  randomIds,
  type SandboxPaymentProvider,
  sandboxFailureReason,
  scryptHasher,
  TestClock,
} from "../src/index.ts"
import type { KyselyStorage } from "../src/kysely.ts"
import { openTestPostgres, openTestSqlite, type Payer, paymentRequest, setUpPayer } from "../src/testing/index.ts"

/*
 * Issue 9, item 7: a payment whose provider call ended without an answer (a lost answer, a crash,
 * a job given up) is settled from what the provider says of it, asked by our payment id, instead
 * of staying `processing`. Through the engine, on a SQLite file (embedded runner) and on Postgres
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
  const optionsWith = (wrap?: (sandbox: SandboxPaymentProvider) => SandboxPaymentProvider): EngineOptions => ({
    storage,
    clock,
    ids: randomIds({ clock }),
    hasher: scryptHasher({ cost: 2 ** 10 }),
    serverSecret: testServerSecret,
    paymentProvider: wrap === undefined ? provider : wrap(provider),
    bankLinker: createSandboxBankLinker(),
  })
  const engineWith = () => createEngine(optionsWith())

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
  /** The outcome events of the payer's payments (their starts, debit initiated, are not what these tests are about). */
  const paymentEvents = async () =>
    (
      await storage.db
        .selectFrom("events")
        .select(["event", "resource_id"])
        .where("company_id", "=", payer.companyId)
        .where("event", "in", ["PaymentEvents::CompletedEvent", "PaymentEvents::FailedEvent"])
        .orderBy("id")
        .execute()
    ).map((e) => `${e.event} ${e.resource_id}`)

  /** Runs the payment's job, each attempt failing, until it gives up: the payment stays processing. */
  const runUntilGivenUp = async (id: PaymentId) => {
    expect(await engine.jobs.runDue()).toEqual({ ran: 1, failed: 1 })
    for (let attempt = 2; attempt <= maxJobAttempts; attempt += 1) {
      clock.advance(pastRetry)
      expect(await engine.jobs.runDue()).toEqual({ ran: 1, failed: 1 })
    }
    clock.advance(pastRetry)
    expect(await engine.jobs.runDue()).toEqual({ ran: 0, failed: 0 })
    expect((await stored(id))?.status).toBe("processing")
  }

  /**
   * One run of the scheduled `settle_unknown_payments`: a slot queued as the runners' schedules
   * queue one, but by the engine's clock (graphile-worker's cron follows the wall clock, which a
   * test does not move) and without a key, as graphile-worker's cron queues it (a slot given up
   * keeps its key there), then run by the storage's runner. Its report.
   */
  const runSweep = async () => {
    const now = clock.now()
    await storage.transaction((tx) =>
      tx.jobs.enqueue({
        id: JobId.make(`job_schedule_settle_unknown_payments_${now.getTime()}`),
        kind: "settle_unknown_payments",
        payload: "{}",
        run_at: now.toISOString(),
        key: null,
        max_attempts: 1,
        created_at: now.toISOString(),
        workspace_id: null,
      }),
    )
    return engine.jobs.runDue()
  }

  /** Moves the engine's clock to `ms` after the payment's last update. */
  const moveToAfterUpdate = async (id: PaymentId, ms: number) => {
    const last = Date.parse((await stored(id))!.updated_at)
    clock.advance(last + ms - clock.now().getTime())
  }

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

  it("a payment whose job gave up, and that the provider never received, fails once it has been processing past the threshold", async () => {
    provider.setFailure("submitPayment", true)
    const id = await pay(100, "never-received")
    await runUntilGivenUp(id)
    expect(provider.submittedPayments()).toEqual([])

    await moveToAfterUpdate(id, unknownOutcomeAfterMs)
    expect(await runSweep()).toEqual({ ran: 1, failed: 0 })
    expect((await stored(id))?.status).toBe("processing")
    expect(await paymentEvents()).toEqual([])

    clock.advance(1)
    expect(await runSweep()).toEqual({ ran: 1, failed: 0 })
    expect(await stored(id)).toMatchObject({
      status: "failed",
      failure_reason: notReceivedByProvider,
      provider_payment_id: null,
      updated_at: clock.now().toISOString(),
    })
    expect(notReceivedByProvider).toBe("Payment was not received by the provider")
    expect(await paymentEvents()).toEqual([`PaymentEvents::FailedEvent ${id}`])
    // Asking submitted nothing, and a later run leaves the failed payment alone.
    provider.setFailure("submitPayment", false)
    clock.advance(unknownOutcomeAfterMs)
    expect(await runSweep()).toEqual({ ran: 1, failed: 0 })
    expect(provider.submittedPayments()).toEqual([])
    expect((await stored(id))?.status).toBe("failed")
  })

  it("a payment whose job gave up after the provider executed it completes from the provider's answer, once the provider can be asked", async () => {
    provider.failNext("submitPayment", new Error("connection reset"), "after")
    provider.setFailure("findPayment", true)
    const id = await pay(100, "executed")
    await runUntilGivenUp(id)
    const [executed] = provider.submittedPayments()
    expect(executed?.paymentId).toBe(id)

    // The provider cannot be asked: the payment stays processing, and the run says it failed.
    await moveToAfterUpdate(id, unknownOutcomeAfterMs + 1)
    expect(await runSweep()).toEqual({ ran: 1, failed: 1 })
    expect((await stored(id))?.status).toBe("processing")

    provider.setFailure("findPayment", false)
    clock.advance(60_000)
    expect(await runSweep()).toEqual({ ran: 1, failed: 0 })
    expect(await stored(id)).toMatchObject({
      status: "completed",
      provider_payment_id: executed!.outcome.providerPaymentId,
      failure_reason: null,
    })
    expect(provider.submittedPayments()).toHaveLength(1)
    expect(await paymentEvents()).toEqual([`PaymentEvents::CompletedEvent ${id}`])
  })

  it("a run of the payment's job that took it over while the sweep asked the provider wins: the payment is not failed under it", async () => {
    provider.setFailure("submitPayment", true)
    const id = await pay(100, "taken-over")
    await runUntilGivenUp(id)
    provider.setFailure("submitPayment", false)
    await moveToAfterUpdate(id, unknownOutcomeAfterMs + 1)

    // While the sweep asks the provider, which has not received the payment, a run of the job
    // (an operator's, or one a crash left behind) takes the payment over and is on its way to
    // the provider: its submission lands after the sweep has decided.
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let submitting!: () => void
    const atProvider = new Promise<void>((resolve) => {
      submitting = resolve
    })
    let execution: Promise<unknown> | undefined
    const racing = createJobHandlers(
      optionsWith((sandbox) => ({
        ...sandbox,
        findPayment: async (paymentId) => {
          const answer: PaymentOutcome | undefined = await sandbox.findPayment(paymentId)
          if (execution === undefined) {
            execution = racing.run("execute_payment", { payment_id: paymentId, workspace_id: payer.actor.workspaceId })
            await atProvider
          }
          return answer
        },
        submitPayment: async (request) => {
          submitting()
          await held
          return sandbox.submitPayment(request)
        },
      })),
    )
    await racing.run("settle_unknown_payments", {})
    expect((await stored(id))?.status).toBe("processing")
    release()
    await execution
    expect((await stored(id))?.status).toBe("completed")
    expect(provider.submittedPayments().map((p) => p.paymentId)).toEqual([id])
    expect(await paymentEvents()).toEqual([`PaymentEvents::CompletedEvent ${id}`])
  })
})
