import { openTestSqlite } from "@payments-engine/adapters/testing"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
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
 * Payments over HTTP on SQLite. The test service has no background job runner: a payment is
 * executed only when the test moves the sandbox clock (`POST /api/v1/sandbox/clock/advance`),
 * so a pending payment stays pending until then.
 */
const sqlite = openTestSqlite({ file: true })
let service: TestService
let payer: Payer
beforeAll(async () => {
  service = await startTestService({ storage: await sqlite.factory(), sandbox: true })
})
afterAll(async () => {
  await service.close()
  await sqlite.close()
})
// A new company for each test (signed in again, as tests move the clock), so lists start empty,
// and no job left over from an earlier test, so `jobs_run` counts this test's.
beforeEach(async () => {
  await service.runJobs()
  payer = await setUpPayer(service, "payments")
})

const pay = (body: unknown, token = payer.token, cid = payer.cid) =>
  service.request("POST", `/api/v1/companies/${cid}/payments`, { token, body })
const getPayment = (id: string) =>
  service.request("GET", `/api/v1/companies/${payer.cid}/payments/${id}`, { token: payer.token })
const list = (query = "") =>
  service.request("GET", `/api/v1/companies/${payer.cid}/payments${query}`, { token: payer.token })
const cancel = (id: string, token = payer.token) =>
  service.request("POST", `/api/v1/companies/${payer.cid}/payments/${id}/cancel`, { token })

describe("executing payments", () => {
  it("completes a payment once its job runs, and fails one whose amount ends in .13", async () => {
    const good = await pay(paymentBody(await createQuote(service, payer, 99.99), "good-1"))
    const bad = await pay(paymentBody(await createQuote(service, payer, 10.13), "bad-1", { debit_note: "test" }))
    expectDocumentedShape(service.routes, "createPayment", good)
    expect(good.status).toBe(201)
    expect(bad.status).toBe(201)
    for (const created of [good, bad]) {
      expect((await getPayment(created.body.data.id)).body.data.status).toBe("pending")
    }
    expect(await advanceClock(service, payer.token, 0)).toBe(2)
    const completed = await getPayment(good.body.data.id)
    expectDocumentedShape(service.routes, "getPayment", completed)
    expect(completed.body.data).toMatchObject({
      status: "completed",
      instructed_amount: "99.99",
      idempotency_key: "good-1",
    })
    expect((await getPayment(bad.body.data.id)).body.data).toMatchObject({
      status: "failed",
      instructed_amount: "10.13",
      debit_note: "test",
    })
    expect(await advanceClock(service, payer.token, 60)).toBe(0)
    expect(service.paymentProvider.submittedPayments().map((p) => [p.paymentId, p.outcome.status])).toEqual(
      expect.arrayContaining([
        [good.body.data.id, "completed"],
        [bad.body.data.id, "failed"],
      ]),
    )
  })
})

describe("quote use", () => {
  it("pays a quote once: another payment of it is 422 Quote has already been used", async () => {
    const quoteId = await createQuote(service, payer, 20)
    expect((await pay(paymentBody(quoteId, "first"))).status).toBe(201)
    expectError(await pay(paymentBody(quoteId, "second")), 422, "payment_quote_id", "Quote has already been used")
  })

  it("refuses a quote 15 minutes old, and one that does not exist", async () => {
    const quoteId = await createQuote(service, payer, 20)
    await advanceClock(service, payer.token, 15 * 60 - 1)
    const fresh = await createQuote(service, payer, 21)
    await advanceClock(service, payer.token, 1)
    expectError(await pay(paymentBody(quoteId, "late")), 422, "payment_quote_id", "Quote has expired")
    expect((await pay(paymentBody(fresh, "in-time"))).status).toBe(201)
    expectError(await pay(paymentBody("qt_missing", "nowhere")), 422, "payment_quote_id", "Quote not found")
    const other = await setUpPayer(service, "payments")
    expectError(
      await pay(paymentBody(await createQuote(service, other, 5), "foreign")),
      422,
      "payment_quote_id",
      "Quote not found",
    )
  })
})

describe("the business idempotency_key", () => {
  it("answers 200 with the same payment for the same request, 422 for another with the key", async () => {
    const quoteId = await createQuote(service, payer, 30)
    const body = paymentBody(quoteId, "inv-7", { credit_note: "Invoice 7" })
    const first = await pay(body)
    const again = await pay(body)
    expect(first.status).toBe(201)
    expect(again.status).toBe(200)
    expectDocumentedShape(service.routes, "createPayment", again)
    expect(again.body).toEqual(first.body)
    expect(again.body.data).not.toHaveProperty("idempotency_key")
    for (const changed of [
      paymentBody(quoteId, "inv-7", { credit_note: "Invoice 7", reason: "taxes" }),
      paymentBody(quoteId, "inv-7", { credit_note: "Invoice 8" }),
      paymentBody(quoteId, "inv-7"),
      paymentBody(await createQuote(service, payer, 30), "inv-7", { credit_note: "Invoice 7" }),
    ]) {
      expectError(await pay(changed), 422, "idempotency_key", "has already been taken")
    }
    // unique per company: another company may use the key
    const other = await setUpPayer(service, "payments")
    const elsewhere = await pay(paymentBody(await createQuote(service, other, 30), "inv-7"), other.token, other.cid)
    expect(elsewhere.status).toBe(201)
    expect((await list()).body.meta.total_records).toBe(1)
  })

  it("makes exactly one payment of 10 concurrent creates with one key", async () => {
    const body = paymentBody(await createQuote(service, payer, 40), "concurrent-1")
    const answers = await Promise.all(Array.from({ length: 10 }, () => pay(body)))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201])
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1)
    const listed = await list()
    expect(listed.body.data).toHaveLength(1)
    expect(listed.body.data[0]).toMatchObject({ id: answers[0]?.body.data.id, idempotency_key: "concurrent-1" })
  })

  it("makes one payment of one quote paid concurrently under 10 keys", async () => {
    const quoteId = await createQuote(service, payer, 41)
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => pay(paymentBody(quoteId, `race-${i}`))))
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1)
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expectError(refused, 422, "payment_quote_id", "Quote has already been used")
    }
    expect((await list()).body.meta.total_records).toBe(1)
  })

  it("works beside the Idempotency-Key header, which replays the first answer", async () => {
    const body = paymentBody(await createQuote(service, payer, 50), "header-1")
    const send = () =>
      service.request("POST", `/api/v1/companies/${payer.cid}/payments`, {
        token: payer.token,
        body,
        headers: { "Idempotency-Key": "payment-header-1" },
      })
    const first = await send()
    const replay = await send()
    expect(first.status).toBe(201)
    expect({ status: replay.status, body: replay.body }).toEqual({ status: 201, body: first.body })
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect((await pay(body)).status).toBe(200)
  })
})

describe("cancelling", () => {
  it("cancels a pending payment, whose job then does nothing; anything else is 422 naming its status", async () => {
    const pending = (await pay(paymentBody(await createQuote(service, payer, 60), "cancel-me"))).body.data.id
    const cancelled = await cancel(pending)
    expectDocumentedShape(service.routes, "cancelPayment", cancelled)
    expect(cancelled.body.data).toMatchObject({ id: pending, status: "cancelled", idempotency_key: "cancel-me" })
    expect(await advanceClock(service, payer.token, 0)).toBe(1)
    expect((await getPayment(pending)).body.data.status).toBe("cancelled")
    expect(service.paymentProvider.submittedPayments().map((p) => p.paymentId)).not.toContain(pending)
    expectError(await cancel(pending), 422, "status", "Payment cannot be cancelled in status cancelled")

    const completed = (await pay(paymentBody(await createQuote(service, payer, 61), "done"))).body.data.id
    const failed = (await pay(paymentBody(await createQuote(service, payer, 61.13), "fails"))).body.data.id
    await advanceClock(service, payer.token, 0)
    expectError(await cancel(completed), 422, "status", "Payment cannot be cancelled in status completed")
    expectError(await cancel(failed), 422, "status", "Payment cannot be cancelled in status failed")
    expectError(
      await cancel("pay_missing"),
      404,
      "id",
      "Payment Instruction not found or not accessible in this workspace",
    )
  })

  it("needs a write key", async () => {
    const pending = (await pay(paymentBody(await createQuote(service, payer, 62), "keep"))).body.data.id
    expectError(
      await cancel(pending, await service.signIn("payments", "read")),
      403,
      "base",
      "API key does not have permission for this action",
    )
    expect((await getPayment(pending)).body.data.status).toBe("pending")
  })
})

describe("GET /api/v1/companies/{cid}/payments", () => {
  it("pages 25 a time and filters by status and payment_batch_id", async () => {
    const ids: Partial<Record<string, string>> = {}
    for (const [key, amount] of [
      ["a", 1],
      ["b", 2.13],
      ["c", 3],
    ] as const) {
      ids[key] = (await pay(paymentBody(await createQuote(service, payer, amount), key))).body.data.id
    }
    await advanceClock(service, payer.token, 0)
    ids.d = (await pay(paymentBody(await createQuote(service, payer, 4), "d"))).body.data.id
    ids.e = (await pay(paymentBody(await createQuote(service, payer, 5), "e"))).body.data.id
    await cancel(ids.e as string)

    const all = await list()
    expectDocumentedShape(service.routes, "listPayments", all)
    expect(all.body.data.map((p: { id: string }) => p.id)).toEqual([ids.a, ids.b, ids.c, ids.d, ids.e])
    expect(all.body.meta).toEqual({ total_records: 5, total_pages: 1, current_page: 1, per_page: 25 })
    const byStatus = async (status: string) =>
      (await list(`?status=${status}`)).body.data.map((p: { id: string }) => p.id)
    expect(await byStatus("completed")).toEqual([ids.a, ids.c])
    expect(await byStatus("failed")).toEqual([ids.b])
    expect(await byStatus("pending")).toEqual([ids.d])
    expect(await byStatus("cancelled")).toEqual([ids.e])
    expect(await byStatus("processing")).toEqual([])
    expect((await list("?payment_batch_id=pb_missing")).body.data).toEqual([])

    const paged = await list("?status=completed&per_page=1&page=2")
    expect(paged.body.data.map((p: { id: string }) => p.id)).toEqual([ids.c])
    expect(paged.body.links).toEqual({
      first: `/api/v1/companies/${payer.cid}/payments?status=completed&page=1&per_page=1`,
      prev: `/api/v1/companies/${payer.cid}/payments?status=completed&page=1&per_page=1`,
      next: null,
      last: `/api/v1/companies/${payer.cid}/payments?status=completed&page=2&per_page=1`,
    })
  })

  it("answers 400 Invalid status for a status that is not one", async () => {
    for (const query of ["?status=done", "?status=COMPLETED", "?status=", "?status=pending&status=failed"]) {
      expectError(await list(query), 400, "status", "Invalid status")
    }
    expectError(await list("?page=0"), 400, "page", "must be an integer greater than or equal to 1")
  })
})

describe("payment errors", () => {
  it("answers the spec's errors with their exact messages", async () => {
    const quoteId = await createQuote(service, payer, 70)
    expectError(await pay({}), 400, "payment_instruction", "Payment instruction is required")
    expectError(await pay({ payment_instruction: [] }), 422, "payment_instruction", "must be an object")
    expectError(
      await pay({ payment_instruction: { payment_quote_id: quoteId, reason: "taxes" } }),
      422,
      "idempotency_key",
      "Idempotency key is required",
    )
    expectError(
      await pay({ payment_instruction: { payment_quote_id: quoteId, reason: "taxes", idempotency_key: "" } }),
      422,
      "idempotency_key",
      "Idempotency key is required",
    )
    const missing = await pay({ payment_instruction: { idempotency_key: "k" } })
    expect(missing.status).toBe(400)
    expect(missing.body.errors).toEqual([
      { field: "payment_quote_id", message: "Payment quote ID is required" },
      { field: "reason", message: "Reason is required" },
    ])
    expectError(await pay(paymentBody(quoteId, "k", { reason: "gifts" })), 422, "reason", "is not a valid reason")
    expectError(
      await pay(paymentBody(quoteId, "k", { credit_note: "x".repeat(141) })),
      422,
      "credit_note",
      "is too long (maximum is 140 characters)",
    )
    expectError(
      await pay(paymentBody(quoteId, "k", { payment_batch_id: "pb_missing" })),
      422,
      "payment_batch_id",
      "Payment batch not found",
    )
    expectError(
      await pay(paymentBody(quoteId, "k"), payer.token, "cmp_missing"),
      404,
      "company_id",
      "Company not found or not accessible in this workspace",
    )
    expectError(
      await pay(paymentBody(quoteId, "k"), await service.signIn("payments", "read")),
      403,
      "base",
      "API key does not have permission for this action",
    )
    expectError(
      await getPayment("pay_missing"),
      404,
      "id",
      "Payment Instruction not found or not accessible in this workspace",
    )
    const other = await setUpPayer(service, "payments")
    const foreign = (await pay(paymentBody(await createQuote(service, other, 5), "f"), other.token, other.cid)).body
      .data.id
    expectError(
      await getPayment(foreign),
      404,
      "id",
      "Payment Instruction not found or not accessible in this workspace",
    )
    for (const [method, path] of [
      ["POST", `/api/v1/companies/${payer.cid}/payments`],
      ["GET", `/api/v1/companies/${payer.cid}/payments`],
      ["GET", `/api/v1/companies/${payer.cid}/payments/${foreign}`],
      ["POST", `/api/v1/companies/${payer.cid}/payments/${foreign}/cancel`],
    ] as const) {
      expectError(
        await service.request(method, path, method === "POST" ? { body: paymentBody(quoteId, "k") } : {}),
        401,
        "token",
        "Missing or invalid token",
      )
    }
    expect((await pay(paymentBody(quoteId, "k"))).status).toBe(201)
  })
})
