import { performance } from "node:perf_hooks"
import { testServerSecret } from "@payments-engine/contract-tests"
import {
  createEngine,
  type Engine,
  type PaymentBatchId,
  type PaymentProvider,
  type Storage,
} from "@payments-engine/core"
import { afterAll, describe, expect, it } from "vitest"
import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  randomIds,
  scryptHasher,
  systemClock,
} from "../src/index.ts"
import { openTestPostgres, openTestSqlite, quoteRequest, setUpPayer } from "../src/testing/index.ts"

/**
 * A real batch at the default rate (20 started a second, 5 in flight) through the sandbox
 * provider, on SQLite and Postgres with their job runners and the system clock (the rate is
 * about real seconds, and no test clock moves by itself): the provider records the moment each
 * payment is submitted to it, and no one-second window holds more than 20. Every ninth call
 * blocks the event loop for 40 ms, as a busy process does, so that lanes wake late for their
 * slots.
 */
const sqlite = openTestSqlite({ file: true })
const postgres = openTestPostgres()
afterAll(async () => {
  await sqlite.close()
  await postgres.close()
})

const batchSize = 70

/** The most submissions in any one-second window closed at both ends. */
const busiestSecond = (times: ReadonlyArray<number>) => {
  const sorted = [...times].sort((a, b) => a - b)
  let most = 0
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while (sorted[i]! - sorted[j]! > 1000) j += 1
    most = Math.max(most, i - j + 1)
  }
  return most
}

/** The sandbox provider, recording when each submission reaches it and sometimes hogging the event loop. */
const recordingProvider = (submitted: Array<number>): PaymentProvider => {
  const sandbox = createSandboxPaymentProvider({ latencyMs: 10 })
  return {
    ...sandbox,
    submitPayment: async (request) => {
      submitted.push(performance.timeOrigin + performance.now())
      if (submitted.length % 9 === 0) {
        const until = performance.now() + 40
        while (performance.now() < until) {
          // Blocked: every timer of the other lanes fires late.
        }
      }
      return sandbox.submitPayment(request)
    },
  }
}

const engineOn = (storage: Storage, paymentProvider: PaymentProvider): Engine =>
  createEngine({
    storage,
    clock: systemClock,
    ids: randomIds(),
    hasher: scryptHasher({ cost: 2 ** 10 }),
    serverSecret: testServerSecret,
    paymentProvider,
    bankLinker: createSandboxBankLinker(),
  })

describe.each([
  ["SQLite", () => sqlite.factory()],
  ["Postgres", () => postgres.factory()],
])("a batch at the default rate on %s", (_name, factory) => {
  it(`submits ${batchSize} payments with never more than 20 in any one-second window`, async () => {
    const storage = await factory()
    const submitted: Array<number> = []
    const engine = engineOn(storage, recordingProvider(submitted))
    const payer = await setUpPayer(engine, "batch-rate")
    const { batch } = await engine.paymentBatches.create(payer.actor, payer.companyId, {})
    for (let i = 0; i < batchSize; i += 1) {
      const quote = await engine.quotes.create(payer.actor, payer.companyId, quoteRequest(payer, i))
      await engine.payments.create(payer.actor, payer.companyId, {
        payment_instruction: {
          payment_quote_id: quote.id,
          reason: "goods_purchased",
          idempotency_key: `rate-${i}`,
          payment_batch_id: batch.id,
        },
      })
    }
    engine.jobs.start()
    try {
      await engine.paymentBatches.process(payer.actor, payer.companyId, batch.id as PaymentBatchId)
      const ended = async () =>
        !["processing", "building"].includes(
          (await engine.paymentBatches.get(payer.actor, payer.companyId, batch.id as PaymentBatchId)).status,
        )
      for (let i = 0; i < 600 && !(await ended()); i += 1) await new Promise((resolve) => setTimeout(resolve, 50))
      expect(await ended()).toBe(true)
    } finally {
      await engine.jobs.stop()
    }
    expect(submitted).toHaveLength(batchSize)
    expect(busiestSecond(submitted)).toBeLessThanOrEqual(20)
  }, 60_000)
})
