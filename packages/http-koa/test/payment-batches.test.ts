import { createSandboxPaymentProvider, type SandboxPaymentProvider } from "@payments-engine/adapters"
import type { KyselyStorage } from "@payments-engine/adapters/kysely"
import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError } from "./support/expectations.ts"
import {
  advanceClock,
  createQuote,
  expectDocumentedShape,
  type Payer,
  paymentBody,
  setUpPayer,
} from "./support/payment-fixtures.ts"
import { startTestService, type TestService } from "./support/test-service.ts"

/**
 * Payment batches over HTTP on a real socket, on SQLite (embedded runner) and Postgres
 * (graphile-worker): the resource, holding payments, process_batch, execution to one terminal
 * status with one completion event, and expiry by the sandbox clock. The test clock stands
 * still, so the batch rate limit is lifted here (it is measured by the benchmark, and held by
 * the slots of `paymentBatches.takeSlot`, which the contract suite checks).
 */
const sqlite = openTestSqlite({ file: true })
const postgres = openTestPostgres()
afterAll(async () => {
  await sqlite.close()
  await postgres.close()
})

describe.each([
  ["SQLite", () => sqlite.factory()],
  ["Postgres", () => postgres.factory()],
])("payment batches on %s", (_name, factory) => {
  let service: TestService
  let storage: KyselyStorage
  /** Calls that reached the provider, by method and payment id. */
  const calls: Array<string> = []
  /** Payments whose submission the provider takes and whose answer is then lost, once each. */
  const answersToLose = new Set<string>()
  beforeAll(async () => {
    storage = (await factory()) as KyselyStorage
    const sandbox = createSandboxPaymentProvider()
    const paymentProvider: SandboxPaymentProvider = {
      ...sandbox,
      submitPayment: async (request) => {
        calls.push(`submit ${request.paymentId}`)
        const outcome = await sandbox.submitPayment(request)
        if (answersToLose.delete(request.paymentId)) throw new Error("connection reset")
        return outcome
      },
      findPayment: (paymentId) => {
        calls.push(`find ${paymentId}`)
        return sandbox.findPayment(paymentId)
      },
    }
    service = await startTestService({
      storage,
      sandbox: true,
      paymentProvider,
      batchExecution: { perSecond: Number.POSITIVE_INFINITY },
    })
  })
  afterAll(() => service.close())

  const batches = (payer: Payer) => `/api/v1/companies/${payer.cid}/payment_batches`
  const createBatch = (payer: Payer, body: unknown) =>
    service.request("POST", batches(payer), { token: payer.token, body })
  const getBatch = async (payer: Payer, id: string) =>
    service.request("GET", `${batches(payer)}/${id}`, { token: payer.token })
  const processBatch = (payer: Payer, id: string) =>
    service.request("POST", `${batches(payer)}/${id}/process_batch`, { token: payer.token })
  const pay = (payer: Payer, quoteId: string, key: string, batchId?: string) =>
    service.request("POST", `/api/v1/companies/${payer.cid}/payments`, {
      token: payer.token,
      body: paymentBody(quoteId, key, batchId === undefined ? {} : { payment_batch_id: batchId }),
    })
  const payInBatch = async (payer: Payer, batchId: string, amount: number, key: string) => {
    const response = await pay(payer, await createQuote(service, payer, amount), key, batchId)
    expect(response.status, response.text).toBe(201)
    return response.body.data.id as string
  }
  const statusOf = async (payer: Payer, paymentId: string) =>
    (await service.request("GET", `/api/v1/companies/${payer.cid}/payments/${paymentId}`, { token: payer.token })).body
      .data.status
  /** The payer with a new token: moving the workspace's clock by hours outlives the old one. */
  const signedInAgain = async (payer: Payer, workspace: string): Promise<Payer> => ({
    ...payer,
    token: await service.signIn(workspace),
  })
  const eventsOf = (payer: Payer) =>
    storage.db
      .selectFrom("events")
      .select(["event"])
      .where("company_id", "=", payer.cid as never)
      .orderBy("id")
      .execute()

  it("creates a batch in building; its idempotency key answers 200 for the same label and metadata, 422 otherwise", async () => {
    const payer = await setUpPayer(service, "batches-create")
    const body = {
      payment_batch: { idempotency_key: "may-run", label: "May payroll", metadata: { run: 5, team: "ops" } },
    }
    const first = await createBatch(payer, body)
    expect(first.status, first.text).toBe(201)
    expectDocumentedShape(service.routes, "createPaymentBatch", first)
    expect(first.body.data).toMatchObject({
      status: "building",
      label: "May payroll",
      idempotency_key: "may-run",
      total_count: 0,
      succeeded_count: 0,
      failed_count: 0,
      metadata: { run: 5, team: "ops" },
      submitted_at: null,
      completed_at: null,
    })
    const reordered = { payment_batch: { ...body.payment_batch, metadata: { team: "ops", run: 5 } } }
    const again = await createBatch(payer, reordered)
    expect(again.status).toBe(200)
    expect(again.body.data).toEqual(first.body.data)
    expectError(
      await createBatch(payer, { payment_batch: { ...body.payment_batch, label: "June payroll" } }),
      422,
      "idempotency_key",
      "has already been taken",
    )
    expectError(
      await createBatch(payer, { payment_batch: { ...body.payment_batch, metadata: { run: 6 } } }),
      422,
      "idempotency_key",
      "has already been taken",
    )
    const bare = await createBatch(payer, undefined)
    expect(bare.status, bare.text).toBe(201)
    expect(bare.body.data).toMatchObject({ label: null, idempotency_key: null, metadata: {} })
    expectError(await createBatch(payer, { payment_batch: { metadata: [1] } }), 422, "metadata", "must be an object")
    expectError(await createBatch(payer, { payment_batch: { label: 7 } }), 422, "label", "must be a string")
  })

  it("lists batches by status and creation day (inclusive), 20 a page; a bad date is 400", async () => {
    let payer = await setUpPayer(service, "batches-list")
    const day1 = await createBatch(payer, {})
    await advanceClock(service, payer.token, 86_400)
    payer = await signedInAgain(payer, "batches-list")
    const day2 = await createBatch(payer, {})
    const list = (query: string) => service.request("GET", `${batches(payer)}${query}`, { token: payer.token })
    const ids = async (query: string) => (await list(query)).body.data.map((b: { id: string }) => b.id)
    const firstDay = day1.body.data.created_at.slice(0, 10)
    const secondDay = day2.body.data.created_at.slice(0, 10)
    expect(firstDay).not.toBe(secondDay)
    const all = await list("")
    expectDocumentedShape(service.routes, "listPaymentBatches", all)
    expect(all.body.meta).toMatchObject({ total_records: 2, per_page: 20, current_page: 1 })
    expect(await ids(`?from_date=${firstDay}&to_date=${firstDay}`)).toEqual([day1.body.data.id])
    expect(await ids(`?from_date=${secondDay}`)).toEqual([day2.body.data.id])
    expect(await ids(`?to_date=${secondDay}&status=building`)).toEqual([day1.body.data.id, day2.body.data.id])
    expect(await ids("?status=processing")).toEqual([])
    for (const bad of ["2026-02-30", "2026-1-05", "yesterday"]) {
      expectError(await list(`?from_date=${bad}`), 400, "from_date", "invalid date format")
    }
    expectError(await list("?to_date=2026-13-01"), 400, "to_date", "invalid date format")
    expectError(await list("?status=done"), 400, "status", "Invalid status")
  })

  it("holds payments until process_batch, then runs each once: counts, one terminal status, one batch event", async () => {
    const payer = await setUpPayer(service, "batches-run")
    const batch = (await createBatch(payer, { payment_batch: { label: "run" } })).body.data
    const payments = [
      await payInBatch(payer, batch.id, 10, "b-1"),
      await payInBatch(payer, batch.id, 10.13, "b-2"),
      ...(await Promise.all(
        [11, 12, 13, 14, 15, 16].map((amount, i) => payInBatch(payer, batch.id, amount, `b-${i + 3}`)),
      )),
    ]
    expect((await getBatch(payer, batch.id)).body.data.total_count).toBe(8)
    // Held: no job runs for them while the batch is building.
    expect(await advanceClock(service, payer.token, 0)).toBe(0)
    for (const id of payments) expect(await statusOf(payer, id)).toBe("pending")

    const processed = await processBatch(payer, batch.id)
    expect(processed.status, processed.text).toBe(202)
    expectDocumentedShape(service.routes, "processPaymentBatch", processed)
    expect(processed.body.data).toMatchObject({ status: "processing", submitted_at: service.clock.now().toISOString() })
    expectError(await processBatch(payer, batch.id), 409, "status", "Batch is already being processed")
    expectError(
      await pay(payer, await createQuote(service, payer, 5), "late", batch.id),
      422,
      "payment_batch_id",
      "Payment batch has reached the maximum of 500 payments",
    )

    // The process job, then one job per lane: 8 payments over the 5 lanes, two by two.
    expect(await advanceClock(service, payer.token, 0)).toBe(1 + 4)
    const done = (await getBatch(payer, batch.id)).body.data
    expect(done).toMatchObject({
      status: "completed_with_failures",
      total_count: 8,
      succeeded_count: 7,
      failed_count: 1,
      completed_at: service.clock.now().toISOString(),
    })
    expect(await statusOf(payer, payments[1]!)).toBe("failed")
    for (const id of payments.filter((_, i) => i !== 1)) expect(await statusOf(payer, id)).toBe("completed")
    const submitted = service.paymentProvider.submittedPayments().filter((p) => payments.includes(p.paymentId))
    expect(submitted.map((p) => p.paymentId).sort()).toEqual([...payments].sort())
    expect(
      (await eventsOf(payer))
        .map((e) => e.event)
        .filter((e) => !e.startsWith("BankAccount") && !e.startsWith("PaymentProfile") && !e.startsWith("entity.")),
    ).toEqual(["PaymentBatchCompletedEvent"])
    expectError(await processBatch(payer, batch.id), 422, "status", "Batch is not in building status")
    const listed = await service.request(
      "GET",
      `/api/v1/companies/${payer.cid}/payments?payment_batch_id=${batch.id}`,
      {
        token: payer.token,
      },
    )
    expect(listed.body.meta.total_records).toBe(8)
  })

  it("ends a batch whose payments all fail as failed, and refuses to process an empty batch", async () => {
    const payer = await setUpPayer(service, "batches-fail")
    const empty = (await createBatch(payer, {})).body.data
    expectError(await processBatch(payer, empty.id), 422, "status", "Batch has no payment instructions")
    const batch = (await createBatch(payer, {})).body.data
    await payInBatch(payer, batch.id, 1.13, "f-1")
    await payInBatch(payer, batch.id, 2.13, "f-2")
    expect((await processBatch(payer, batch.id)).status).toBe(202)
    await advanceClock(service, payer.token, 0)
    expect((await getBatch(payer, batch.id)).body.data).toMatchObject({ status: "failed", failed_count: 2 })
  })

  it("prices a held payment's expired quote again when the batch runs: a new quote, the same instructed amount", async () => {
    const payer = await setUpPayer(service, "batches-requote")
    const batch = (await createBatch(payer, {})).body.data
    const quoteId = await createQuote(service, payer, 42.5)
    const paid = await pay(payer, quoteId, "q-1", batch.id)
    expect(paid.status, paid.text).toBe(201)
    // Sixteen minutes later the quote has expired: a payment outside a batch would be refused.
    await advanceClock(service, payer.token, 16 * 60)
    expectError(await pay(payer, quoteId, "q-2"), 422, "payment_quote_id", "Quote has expired")
    expect((await processBatch(payer, batch.id)).status).toBe(202)
    await advanceClock(service, payer.token, 0)
    const payment = (
      await service.request("GET", `/api/v1/companies/${payer.cid}/payments/${paid.body.data.id}`, {
        token: payer.token,
      })
    ).body.data
    expect(payment).toMatchObject({
      status: "completed",
      instructed_amount: "42.50",
      instructed_amount_currency: "USD",
    })
    expect(payment.quote_id).not.toBe(quoteId)
    const storedQuote = (id: string) =>
      storage.db
        .selectFrom("quotes")
        .select(["expires_at", "instructed_amount", "fee_strategy", "source_amount"])
        .where("id", "=", id as never)
        .executeTakeFirst()
    const fresh = await storedQuote(payment.quote_id)
    const old = await storedQuote(quoteId)
    expect(fresh).toMatchObject({ instructed_amount: old?.instructed_amount, fee_strategy: old?.fee_strategy })
    expect(fresh!.expires_at > service.clock.now().toISOString()).toBe(true)
    const submitted = service.paymentProvider.submittedPayments().find((p) => p.paymentId === paid.body.data.id)
    expect(submitted).toMatchObject({ instructedAmount: "42.50", sourceAmount: fresh?.source_amount })
  })

  it("asks the provider before submitting a batch payment again whose answer was lost, and counts it once", async () => {
    const payer = await setUpPayer(service, "batches-lost-answer")
    const batch = (await createBatch(payer, {})).body.data
    const id = await payInBatch(payer, batch.id, 8, "l-1")
    expect(await advanceClock(service, payer.token, 0)).toBe(0)
    // The provider makes the payment, and its answer is lost on the way back.
    service.paymentProvider.failNext("submitPayment", new Error("connection reset"), "after")
    expect((await processBatch(payer, batch.id)).status).toBe(202)
    await advanceClock(service, payer.token, 0)
    expect(await statusOf(payer, id)).toBe("processing")
    expect((await getBatch(payer, batch.id)).body.data).toMatchObject({ status: "processing", succeeded_count: 0 })
    // The job's next attempt asks first, and settles the payment from the answer.
    await advanceClock(service, payer.token, 60)
    expect(await statusOf(payer, id)).toBe("completed")
    expect(calls.filter((call) => call.endsWith(` ${id}`))).toEqual([`submit ${id}`, `find ${id}`])
    expect((await getBatch(payer, batch.id)).body.data).toMatchObject({ status: "completed", succeeded_count: 1 })
  })

  it("runs a lane's payments one after another; a lane stopped by a lost answer settles what it ran and resumes on its next attempt", async () => {
    const payer = await setUpPayer(service, "batches-lane-resumes")
    const batch = (await createBatch(payer, {})).body.data
    const ids: string[] = []
    for (let i = 0; i < 11; i++) ids.push(await payInBatch(payer, batch.id, 20 + i, `lr-${i}`))
    // 11 payments over 5 lanes: lanes of 3 payments, claimed in id order.
    const [first, lost, after] = [...ids].sort()
    answersToLose.add(lost!)
    expect((await processBatch(payer, batch.id)).status).toBe(202)
    await advanceClock(service, payer.token, 0)
    // The first lane settled its first payment and stopped at the lost answer, before its third.
    expect(await statusOf(payer, first!)).toBe("completed")
    expect(await statusOf(payer, lost!)).toBe("processing")
    expect(await statusOf(payer, after!)).toBe("processing")
    expect((await getBatch(payer, batch.id)).body.data).toMatchObject({ status: "processing", succeeded_count: 9 })
    // Its next attempt asks about both before submitting: the lost one is settled from the answer.
    await advanceClock(service, payer.token, 60)
    const callsOf = (id: string) => calls.filter((call) => call.endsWith(` ${id}`))
    expect(callsOf(lost!)).toEqual([`submit ${lost}`, `find ${lost}`])
    expect(callsOf(after!)).toEqual([`find ${after}`, `submit ${after}`])
    for (const id of ids.filter((id) => id !== lost && id !== after)) expect(callsOf(id)).toEqual([`submit ${id}`])
    expect((await getBatch(payer, batch.id)).body.data).toMatchObject({
      status: "completed",
      succeeded_count: 11,
      failed_count: 0,
    })
  })

  it("lets exactly one of five concurrent process_batch calls start the batch", async () => {
    const payer = await setUpPayer(service, "batches-race")
    const batch = (await createBatch(payer, {})).body.data
    await payInBatch(payer, batch.id, 3, "r-1")
    const answers = await Promise.all(Array.from({ length: 5 }, () => processBatch(payer, batch.id)))
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409, 409, 409])
    await advanceClock(service, payer.token, 0)
    expect((await getBatch(payer, batch.id)).body.data).toMatchObject({ status: "completed", succeeded_count: 1 })
  })

  it("takes a cancelled held payment out of its batch; a payment of a running batch cannot be cancelled", async () => {
    const payer = await setUpPayer(service, "batches-cancel")
    const batch = (await createBatch(payer, {})).body.data
    const kept = await payInBatch(payer, batch.id, 4, "c-1")
    const dropped = await payInBatch(payer, batch.id, 5, "c-2")
    const cancel = (id: string) =>
      service.request("POST", `/api/v1/companies/${payer.cid}/payments/${id}/cancel`, { token: payer.token })
    expect((await cancel(dropped)).body.data.status).toBe("cancelled")
    expect((await getBatch(payer, batch.id)).body.data.total_count).toBe(1)
    expect((await processBatch(payer, batch.id)).status).toBe(202)
    expectError(await cancel(kept), 422, "status", "Payment cannot be cancelled once its batch is processing")
    await advanceClock(service, payer.token, 0)
    expect((await getBatch(payer, batch.id)).body.data).toMatchObject({ status: "completed", total_count: 1 })
  })

  it("expires a batch still building after seven days of sandbox clock, cancelling its held payments", async () => {
    let payer = await setUpPayer(service, "batches-expire")
    const batch = (await createBatch(payer, {})).body.data
    const held = await payInBatch(payer, batch.id, 6, "e-1")
    expect(await advanceClock(service, payer.token, 7 * 86_400 - 1)).toBe(0)
    payer = await signedInAgain(payer, "batches-expire")
    expect((await getBatch(payer, batch.id)).body.data.status).toBe("building")
    expect(await advanceClock(service, payer.token, 1)).toBe(1)
    expect((await getBatch(payer, batch.id)).body.data.status).toBe("expired")
    expect(await statusOf(payer, held)).toBe("cancelled")
    expectError(await processBatch(payer, batch.id), 422, "status", "Batch is not in building status")
  })

  it("holds at most 500 payments, and runs a full batch to the last one", async () => {
    const payer = await setUpPayer(service, "batches-full")
    const batch = (await createBatch(payer, {})).body.data
    const amounts = Array.from({ length: 500 }, (_, i) => (100 + i) / 100)
    for (let start = 0; start < amounts.length; start += 25) {
      await Promise.all(
        amounts.slice(start, start + 25).map((amount, i) => payInBatch(payer, batch.id, amount, `full-${start + i}`)),
      )
    }
    expect((await getBatch(payer, batch.id)).body.data.total_count).toBe(500)
    expectError(
      await pay(payer, await createQuote(service, payer, 9), "full-500", batch.id),
      422,
      "payment_batch_id",
      "Payment batch has reached the maximum of 500 payments",
    )
    expect((await processBatch(payer, batch.id)).status).toBe(202)
    await advanceClock(service, payer.token, 0)
    // Amounts 1.13, 2.13, 3.13, 4.13 and 5.13 fail in the sandbox.
    expect((await getBatch(payer, batch.id)).body.data).toMatchObject({
      status: "completed_with_failures",
      total_count: 500,
      succeeded_count: 495,
      failed_count: 5,
    })
  }, 120_000)

  it("answers another company's batch as not found, and refuses it for a payment", async () => {
    const owner = await setUpPayer(service, "batches-owner")
    const other = await setUpPayer(service, "batches-other")
    const batch = (await createBatch(owner, {})).body.data
    expectError(await getBatch(other, batch.id), 404, "id", "PaymentBatch not found")
    expectError(await processBatch(other, batch.id), 404, "id", "PaymentBatch not found")
    expectError(
      await pay(other, await createQuote(service, other, 7), "x-1", batch.id),
      422,
      "payment_batch_id",
      "Payment batch not found",
    )
  })
})
