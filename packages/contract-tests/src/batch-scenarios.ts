import type { Awaitable } from "@payments-engine/core"
import {
  batchLifetimeMs,
  batchMachineVersion,
  brandId,
  type CompanyId,
  type PaymentBatchFilter,
  type PaymentBatchId,
  type PaymentBatchRecord,
  type PaymentBatchRepository,
  type PaymentRecord,
  quoteLifetimeMs,
  startSlotIntervalMs,
  type Window,
} from "@payments-engine/core"
import { batchMessages } from "@payments-engine/core/effect"
import { expect } from "vitest"
import {
  batchEventsOf,
  batchRow,
  createBatch,
  meetingPoint,
  payInBatch,
  plusMs,
  storedBatch,
} from "./batch-fixtures.ts"
import { expectRefusal, type Harness } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import { payingCompany, paymentRow, quoteFor, runAllDue, storedPayment, submissionsOf } from "./payment-fixtures.ts"
import { counterIds } from "./test-ports.ts"

const day = 24 * 60 * 60 * 1000

/** One port call in a transaction of its own. */
const onPort =
  (harness: Harness) =>
  <T>(call: (batches: PaymentBatchRepository) => Awaitable<T>): Promise<T> =>
    harness.storage.transaction((tx) => call(tx.paymentBatches))

/** Batches: stored once per key, found in their company, listed by status and time, counted exactly, run once. */
/**
 * Payment rows of one company for port-level writes, each with an id made of `base` and a
 * suffix: suffixes whose byte order differs from a language's order ("B" < "_" < "a") show
 * whether a storage orders ids by bytes.
 */
const batchPaymentRows =
  (company: CompanyId, base: string, at: string) =>
  (suffix: string, batch: PaymentBatchId | null, status: PaymentRecord["status"]): PaymentRecord => {
    const id = brandId("pay", `${base}${suffix}`)
    return {
      ...paymentRow(id, company, brandId("qt", `qt_${id}`), `key-${id}`, at),
      payment_batch_id: batch,
      status,
    }
  }

export const batchScenarios: ScenarioGroup = {
  title: "payment batches",
  scenarios: [
    {
      id: "batches.insert-or-get",
      title:
        "insertOrGet keeps a company's first batch of a key, unchanged; a null key never conflicts; keys are per company, and a key finds only its own company's batch, never another company's of the same key; find is scoped by company; every column round-trips",
      run: async (harness) => {
        const { engine } = harness
        const port = onPort(harness)
        const ids = counterIds()
        const [a, b] = [ids.next("cmp"), ids.next("cmp")]
        const at = "2030-02-03T04:05:06.007Z"
        const later = "2030-02-03T04:05:06.008Z"
        const first = batchRow(ids.next("pb"), a, at, {
          idempotency_key: "run-1",
          label: "First «run» ✓",
          metadata: '{"a":1,"b":"x"}',
        })
        // Every column set: counts, texts with zeros and quotes, each time with its own milliseconds.
        const full = batchRow(ids.next("pb"), a, at, {
          status: "completed_with_failures",
          idempotency_key: "run-full",
          label: "",
          total_count: 3,
          succeeded_count: 2,
          failed_count: 1,
          metadata: '{"n":null,"note":"10.10 \\"x\\""}',
          submitted_at: "2030-02-03T04:05:07.001Z",
          next_slot_at: "2030-02-03T04:05:07.151Z",
          completed_at: "2030-02-03T04:05:09.999Z",
          updated_at: "2030-02-03T04:05:09.990Z",
        })
        const insert = (row: PaymentBatchRecord) => port((batches) => batches.insertOrGet(row))
        expect(await insert(first)).toEqual({ inserted: true, batch: first })
        expect(await insert(full)).toEqual({ inserted: true, batch: full })
        // The same key in the same company: the first batch, not this row, and nothing written.
        const again = batchRow(ids.next("pb"), a, later, { idempotency_key: "run-1", label: "Second" })
        expect(await insert(again)).toEqual({ inserted: false, batch: first })
        const elsewhere = batchRow(ids.next("pb"), b, later, { idempotency_key: "run-1" })
        expect(await insert(elsewhere)).toEqual({ inserted: true, batch: elsewhere })
        // The batch a key finds is the company's own, whichever company stored the key first:
        // `a` stored "run-1" before `b`, and `b` stores "run-2" before `a`.
        const againElsewhere = batchRow(ids.next("pb"), b, later, { idempotency_key: "run-1", label: "Again" })
        expect(await insert(againElsewhere)).toEqual({ inserted: false, batch: elsewhere })
        expect(await insert(batchRow(ids.next("pb"), a, later, { idempotency_key: "run-1" }))).toEqual({
          inserted: false,
          batch: first,
        })
        const secondOfB = batchRow(ids.next("pb"), b, later, { idempotency_key: "run-2" })
        const secondOfA = batchRow(ids.next("pb"), a, later, { idempotency_key: "run-2" })
        expect(await insert(secondOfB)).toEqual({ inserted: true, batch: secondOfB })
        expect(await insert(secondOfA)).toEqual({ inserted: true, batch: secondOfA })
        for (const [company, own] of [
          [a, secondOfA],
          [b, secondOfB],
        ] as const) {
          expect(await insert(batchRow(ids.next("pb"), company, later, { idempotency_key: "run-2" }))).toEqual({
            inserted: false,
            batch: own,
          })
        }
        const keyless = [batchRow(ids.next("pb"), a, later), batchRow(ids.next("pb"), a, later)] as const
        const keylessOutcomes = await port(async (batches) => [
          await batches.insertOrGet(keyless[0]),
          await batches.insertOrGet(keyless[1]),
        ])
        expect(keylessOutcomes).toEqual(keyless.map((batch) => ({ inserted: true, batch })))
        // Racing inserts of one new key: one inserts, and every racer gets the one stored.
        const racers = [0, 1, 2].map((i) =>
          batchRow(ids.next("pb"), a, later, { idempotency_key: "race", label: `racer ${i}` }),
        )
        const raced = await Promise.all(racers.map(insert))
        expect(raced.filter((outcome) => outcome.inserted)).toHaveLength(1)
        const winner = raced.find((outcome) => outcome.inserted)!.batch
        expect(raced.map((outcome) => outcome.batch)).toEqual([winner, winner, winner])

        const read = await port(async (batches) => ({
          first: await batches.find(a, first.id),
          full: await batches.find(a, full.id),
          firstFromB: await batches.find(b, first.id),
          elsewhere: await batches.find(b, elsewhere.id),
          elsewhereFromA: await batches.find(a, elsewhere.id),
          byId: await batches.findById(elsewhere.id),
          notWritten: await batches.findById(again.id),
          unknown: await batches.find(a, brandId("pb", "pb_unknown")),
          listed: await batches.list(a, {}, { offset: 0, limit: 10 }),
        }))
        expect(read).toEqual({
          first,
          full,
          firstFromB: undefined,
          elsewhere,
          elsewhereFromA: undefined,
          byId: elsewhere,
          notWritten: undefined,
          unknown: undefined,
          listed: { rows: [first, full, secondOfA, keyless[0], keyless[1], winner], total: 6 },
        })

        // Through the engine: a key answers its batch again for the same label and metadata.
        const paying = await payingCompany(harness)
        const now = harness.clock.now().toISOString()
        const fields = { idempotency_key: "payroll", label: "May", metadata: { b: 2, a: "1" } }
        const made = await createBatch(engine, paying, fields)
        expect(made).toEqual({
          created: true,
          batch: {
            id: made.batch.id,
            status: "building",
            label: "May",
            idempotency_key: "payroll",
            total_count: 0,
            succeeded_count: 0,
            failed_count: 0,
            metadata: { a: "1", b: 2 },
            submitted_at: null,
            completed_at: null,
            created_at: now,
            updated_at: now,
          },
        })
        expect(await storedBatch(harness.storage, made.batch.id)).toEqual({
          ...made.batch,
          company_id: paying.company.id,
          metadata: '{"a":"1","b":2}',
          machine_version: batchMachineVersion,
          next_slot_at: null,
        })
        harness.clock.advance(1000)
        expect(await createBatch(engine, paying, { ...fields, metadata: { a: "1", b: 2 } })).toEqual({
          created: false,
          batch: made.batch,
        })
        await expectRefusal(
          createBatch(engine, paying, { ...fields, label: "June" }),
          "invalid",
          "idempotency_key",
          batchMessages.keyTaken,
        )
        const keyless2 = await createBatch(engine, paying)
        const keyless3 = await createBatch(engine, paying)
        expect([keyless2.created, keyless3.created, keyless2.batch.id === keyless3.batch.id]).toEqual([
          true,
          true,
          false,
        ])
        const other = await payingCompany(harness)
        const theirs = await createBatch(engine, other, fields)
        expect(theirs.created).toBe(true)
        expect(theirs.batch.id).not.toBe(made.batch.id)
        await expectRefusal(
          engine.paymentBatches.get(other.actor, other.company.id, made.batch.id),
          "not_found",
          "id",
          batchMessages.notFound,
        )
        expect(await engine.paymentBatches.get(paying.actor, paying.company.id, made.batch.id)).toEqual(made.batch)
        expect(
          (await engine.paymentBatches.list(paying.actor, paying.company.id)).data.map((batch) => batch.id),
        ).toEqual([made.batch.id, keyless2.batch.id, keyless3.batch.id])
      },
    },
    {
      id: "batches.list-filters",
      title:
        "batches list in id order, only the company's, by status, from createdFrom (inclusive) and before createdBefore (exclusive), windowed with their total; the engine's days are inclusive",
      run: async (harness) => {
        const port = onPort(harness)
        const ids = counterIds()
        const [company, other] = [ids.next("cmp"), ids.next("cmp")]
        const from = "2030-03-01T00:00:00.000Z"
        const before = "2030-03-02T00:00:00.000Z"
        const rows = [
          batchRow(ids.next("pb"), company, "2030-02-28T23:59:59.999Z"),
          batchRow(ids.next("pb"), company, from),
          batchRow(ids.next("pb"), company, "2030-03-01T00:00:00.001Z", { status: "processing" }),
          batchRow(ids.next("pb"), other, "2030-03-01T12:00:00.000Z"),
          batchRow(ids.next("pb"), company, "2030-03-01T23:59:59.999Z"),
          batchRow(ids.next("pb"), company, before, { status: "processing" }),
          batchRow(ids.next("pb"), company, "2030-03-02T00:00:00.001Z"),
        ]
        // Inserted newest first: the list orders by id, not by arrival.
        await port(async (batches) => {
          for (const row of [...rows].reverse()) await batches.insertOrGet(row)
        })
        const list = async (filter: PaymentBatchFilter, window: Window = { offset: 0, limit: 50 }) => {
          const slice = await port((batches) => batches.list(company, filter, window))
          return { at: slice.rows.map((row) => rows.findIndex((r) => r.id === row.id)), total: slice.total }
        }
        expect(await list({})).toEqual({ at: [0, 1, 2, 4, 5, 6], total: 6 })
        expect(await list({ createdFrom: from })).toEqual({ at: [1, 2, 4, 5, 6], total: 5 })
        expect(await list({ createdBefore: before })).toEqual({ at: [0, 1, 2, 4], total: 4 })
        expect(await list({ createdFrom: from, createdBefore: before })).toEqual({ at: [1, 2, 4], total: 3 })
        expect(await list({ createdFrom: before, createdBefore: before })).toEqual({ at: [], total: 0 })
        expect(await list({ status: "processing" })).toEqual({ at: [2, 5], total: 2 })
        expect(await list({ status: "processing", createdBefore: before })).toEqual({ at: [2], total: 1 })
        expect(await list({ status: "building", createdFrom: before })).toEqual({ at: [6], total: 1 })
        expect(await list({ status: "completed" })).toEqual({ at: [], total: 0 })
        // Full pages with rows after them, matching and not: exactly the window, and the total.
        expect(await list({}, { offset: 0, limit: 2 })).toEqual({ at: [0, 1], total: 6 })
        expect(await list({}, { offset: 2, limit: 2 })).toEqual({ at: [2, 4], total: 6 })
        expect(await list({}, { offset: 5, limit: 2 })).toEqual({ at: [6], total: 6 })
        expect(await list({}, { offset: 6, limit: 2 })).toEqual({ at: [], total: 6 })
        expect(await list({}, { offset: 0, limit: 0 })).toEqual({ at: [], total: 6 })
        const day1 = { createdFrom: from, createdBefore: before }
        expect(await list(day1, { offset: 0, limit: 2 })).toEqual({ at: [1, 2], total: 3 })
        expect(await list(day1, { offset: 1, limit: 2 })).toEqual({ at: [2, 4], total: 3 })
        expect(await list({ status: "building" }, { offset: 0, limit: 3 })).toEqual({ at: [0, 1, 4], total: 4 })
        expect(await list({ status: "building" }, { offset: 3, limit: 3 })).toEqual({ at: [6], total: 4 })
        const theirs = await port((batches) => batches.list(other, {}, { offset: 0, limit: 50 }))
        expect(theirs).toEqual({ rows: [rows[3]], total: 1 })

        // Through the engine: days are UTC and inclusive, from the first to the last millisecond.
        const { engine, clock } = harness
        const paying = await payingCompany(harness)
        clock.advance((day - (clock.now().getTime() % day)) % day)
        const dayOne = clock.now().toISOString().slice(0, 10)
        const atMidnight = await createBatch(engine, paying)
        clock.advance(day - 1)
        const lastMs = await createBatch(engine, paying)
        clock.advance(1)
        const dayTwo = clock.now().toISOString().slice(0, 10)
        const nextDay = await createBatch(engine, paying)
        await payInBatch(engine, paying, nextDay.batch.id, 5, "list-1")
        await engine.paymentBatches.process(paying.actor, paying.company.id, nextDay.batch.id)
        await runAllDue(engine)
        const page = async (query: Record<string, unknown>) => {
          const listed = await engine.paymentBatches.list(paying.actor, paying.company.id, query)
          return { ids: listed.data.map((batch) => batch.id), total: listed.meta.total_records }
        }
        const [one, two, three] = [atMidnight, lastMs, nextDay].map((made) => made.batch.id)
        expect(await page({})).toEqual({ ids: [one, two, three], total: 3 })
        expect(await page({ from_date: dayOne, to_date: dayOne })).toEqual({ ids: [one, two], total: 2 })
        expect(await page({ to_date: dayOne })).toEqual({ ids: [one, two], total: 2 })
        expect(await page({ from_date: dayTwo })).toEqual({ ids: [three], total: 1 })
        expect(await page({ from_date: dayTwo, to_date: dayOne })).toEqual({ ids: [], total: 0 })
        expect(await page({ status: "building" })).toEqual({ ids: [one, two], total: 2 })
        expect(await page({ status: "completed", from_date: dayOne })).toEqual({ ids: [three], total: 1 })
        expect(await page({ per_page: 2, page: 2 })).toEqual({ ids: [three], total: 3 })
        await expectRefusal(
          engine.paymentBatches.list(paying.actor, paying.company.id, { from_date: "2030-02-30" }),
          "missing",
          "from_date",
          batchMessages.invalidDate,
        )
      },
    },
    {
      id: "batches.counts",
      title:
        "hold counts up to the limit and never past it, release never below zero, both only while building; recordOutcomes only while processing, adding both counts; a status compare-and-set only from its status, writing the given fields",
      run: async (harness) => {
        const port = onPort(harness)
        const ids = counterIds()
        const company = ids.next("cmp")
        const t = (ms: number) => plusMs("2030-04-01T10:00:00.000Z", ms)
        const batch = batchRow(ids.next("pb"), company, t(0))
        await port((batches) => batches.insertOrGet(batch))
        const read = () => port((batches) => batches.findById(batch.id))
        const unknown = brandId("pb", "pb_unknown")

        expect(await port((b) => b.hold(batch.id, 2, t(1)))).toEqual({ ...batch, total_count: 1, updated_at: t(1) })
        expect(await port((b) => b.hold(batch.id, 2, t(2)))).toEqual({ ...batch, total_count: 2, updated_at: t(2) })
        const full = { ...batch, total_count: 2, updated_at: t(2) }
        expect(await port((b) => b.hold(batch.id, 2, t(3)))).toBeUndefined()
        expect(await port((b) => b.hold(unknown, 2, t(3)))).toBeUndefined()
        expect(await read()).toEqual(full)
        expect(await port((b) => b.hold(batch.id, 3, t(4)))).toEqual({ ...batch, total_count: 3, updated_at: t(4) })
        for (const [i, left] of [2, 1, 0].entries()) {
          expect(await port((b) => b.release(batch.id, t(5 + i)))).toEqual({
            ...batch,
            total_count: left,
            updated_at: t(5 + i),
          })
        }
        expect(await port((b) => b.release(batch.id, t(8)))).toBeUndefined()
        expect(await port((b) => b.release(unknown, t(8)))).toBeUndefined()
        expect(await read()).toEqual({ ...batch, total_count: 0, updated_at: t(7) })

        // Racing holds for the last places: exactly as many as the limit leaves.
        const holds = await Promise.all([1, 2, 3, 4, 5].map((i) => port((b) => b.hold(batch.id, 3, t(10 + i)))))
        expect(holds.filter((held) => held !== undefined)).toHaveLength(3)
        expect((await read())?.total_count).toBe(3)

        // Nothing counts a building batch's outcomes, and a compare-and-set from another status changes nothing.
        const building = await read()
        expect(await port((b) => b.recordOutcomes(batch.id, { succeeded: 1, failed: 0 }, t(20)))).toBeUndefined()
        expect(await port((b) => b.recordOutcomes(batch.id, { succeeded: 0, failed: 1 }, t(20)))).toBeUndefined()
        const cas = (...args: Parameters<PaymentBatchRepository["compareAndSetStatus"]>) =>
          port((b) => b.compareAndSetStatus(...args))
        expect(
          await cas(batch.id, "processing", "completed", { updated_at: t(20), completed_at: t(20) }),
        ).toBeUndefined()
        expect(await cas(unknown, "building", "processing", { updated_at: t(20) })).toBeUndefined()
        expect(await read()).toEqual(building)

        const processing = await cas(batch.id, "building", "processing", {
          submitted_at: t(21),
          next_slot_at: t(22),
          updated_at: t(23),
        })
        expect(processing).toEqual({
          ...building,
          status: "processing",
          submitted_at: t(21),
          next_slot_at: t(22),
          updated_at: t(23),
        })
        expect(await read()).toEqual(processing)
        // A running batch's total is fixed.
        expect(await port((b) => b.hold(batch.id, 500, t(24)))).toBeUndefined()
        expect(await port((b) => b.release(batch.id, t(24)))).toBeUndefined()
        expect(await port((b) => b.recordOutcomes(batch.id, { succeeded: 1, failed: 0 }, t(25)))).toEqual({
          ...processing,
          succeeded_count: 1,
          updated_at: t(25),
        })
        expect(await port((b) => b.recordOutcomes(batch.id, { succeeded: 2, failed: 3 }, t(26)))).toEqual({
          ...processing,
          succeeded_count: 3,
          failed_count: 3,
          updated_at: t(26),
        })
        expect(await port((b) => b.recordOutcomes(unknown, { succeeded: 0, failed: 1 }, t(26)))).toBeUndefined()
        const racing = await Promise.all([
          cas(batch.id, "processing", "completed_with_failures", { completed_at: t(27), updated_at: t(27) }),
          cas(batch.id, "processing", "failed", { completed_at: t(28), updated_at: t(28) }),
        ])
        const won = racing.filter((row) => row !== undefined)
        expect(won).toHaveLength(1)
        // Fields left out of the change are left alone.
        expect(won[0]).toMatchObject({ submitted_at: t(21), next_slot_at: t(22), succeeded_count: 3, failed_count: 3 })
        expect(await read()).toEqual(won[0])
        expect(await port((b) => b.recordOutcomes(batch.id, { succeeded: 1, failed: 0 }, t(29)))).toBeUndefined()
        expect(await read()).toEqual(won[0])
      },
    },
    {
      id: "batches.start-slots",
      title:
        "takeSlot hands out increasing start slots intervalMs apart, never before now, and never the same one twice, also to racing transactions",
      run: async (harness) => {
        const port = onPort(harness)
        const ids = counterIds()
        const company = ids.next("cmp")
        const now = "2030-05-01T08:00:00.000Z"
        const batch = batchRow(ids.next("pb"), company, now, { status: "processing" })
        await port((batches) => batches.insertOrGet(batch))
        const take = (at: string, intervalMs: number) => port((b) => b.takeSlot(batch.id, at, intervalMs))
        const slotOf = async () => (await port((b) => b.findById(batch.id)))?.next_slot_at

        // From no slot: now, then each one interval after the last.
        expect([await take(now, 50), await take(now, 50), await take(now, 50)]).toEqual([
          now,
          plusMs(now, 50),
          plusMs(now, 100),
        ])
        expect(await slotOf()).toBe(plusMs(now, 150))
        // A caller whose now is behind the next slot waits for it; one whose now is past it starts now.
        expect(await take(plusMs(now, 10), 50)).toBe(plusMs(now, 150))
        const later = plusMs(now, 60_001)
        expect(await take(later, 1)).toBe(later)
        expect(await take(later, 1000)).toBe(plusMs(later, 1))
        expect(await slotOf()).toBe(plusMs(later, 1001))

        // Racing callers: every slot once, back to back.
        const base = plusMs(later, 1001)
        const raced = await Promise.all([0, 1, 2, 3, 4, 5].map(() => take(later, 7)))
        expect([...raced].sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => plusMs(base, 7 * i)))
        expect(await slotOf()).toBe(plusMs(base, 42))

        // Where transactions overlap, racers that all read the batch before any takes a slot.
        if (harness.storage.capabilities.concurrentTransactions) {
          const start = plusMs(base, 42)
          const meet = meetingPoint(3)
          const overlapping = await Promise.all(
            [0, 1, 2].map(() =>
              harness.storage.transaction(async (tx) => {
                await tx.paymentBatches.findById(batch.id)
                await meet()
                return tx.paymentBatches.takeSlot(batch.id, later, 5)
              }),
            ),
          )
          expect([...overlapping].sort()).toEqual([start, plusMs(start, 5), plusMs(start, 10)])
          expect(await slotOf()).toBe(plusMs(start, 15))
        }
      },
    },
    {
      id: "batches.payments-in-batch",
      title:
        "listInBatch gives a batch's payments (of a status, when asked) in id order up to its limit, no other batch's; replaceQuote moves a processing payment off the quote it names only",
      run: async (harness) => {
        const { storage } = harness
        const ids = counterIds()
        const company = ids.next("cmp")
        const [batchX, batchY] = [ids.next("pb"), ids.next("pb")]
        const at = "2030-06-01T00:00:00.000Z"
        const base = ids.next("pay")
        const row = batchPaymentRows(company, base, at)
        const x = [
          row("_B1", batchX, "pending"),
          row("_B2", batchX, "processing"),
          row("__1", batchX, "pending"),
          row("_a1", batchX, "completed"),
          row("_a2", batchX, "pending"),
        ]
        const y = row("_B0", batchY, "pending")
        const loose = row("_B3", null, "pending")
        await storage.transaction(async (tx) => {
          for (const payment of [...x, y, loose].reverse()) await tx.payments.insertIfNew(payment)
        })
        const list = (batch: PaymentBatchId, limit: number, status?: PaymentRecord["status"]) =>
          storage.transaction((tx) => tx.payments.listInBatch(batch, limit, status))
        expect(await list(batchX, 10)).toEqual(x)
        expect(await list(batchX, 10, "pending")).toEqual([x[0], x[2], x[4]])
        expect(await list(batchX, 2, "pending")).toEqual([x[0], x[2]])
        expect(await list(batchX, 1, "pending")).toEqual([x[0]])
        expect(await list(batchX, 2)).toEqual([x[0], x[1]])
        expect(await list(batchX, 10, "processing")).toEqual([x[1]])
        expect(await list(batchX, 10, "failed")).toEqual([])
        expect(await list(batchY, 10)).toEqual([y])
        expect(await list(brandId("pb", "pb_unknown"), 10)).toEqual([])

        const fresh = brandId("qt", `qt_${base}_fresh`)
        const replace = (id: PaymentRecord["id"], from: PaymentRecord["quote_id"], when: string) =>
          storage.transaction((tx) => tx.payments.replaceQuote(id, from, fresh, when))
        const later = "2030-06-01T00:16:00.001Z"
        const [pending, processing, , completed] = x as [PaymentRecord, PaymentRecord, PaymentRecord, PaymentRecord]
        expect(await replace(processing.id, pending.quote_id, later)).toBeUndefined()
        expect(await replace(pending.id, pending.quote_id, later)).toBeUndefined()
        expect(await replace(completed.id, completed.quote_id, later)).toBeUndefined()
        expect(await replace(brandId("pay", "pay_unknown"), processing.quote_id, later)).toBeUndefined()
        for (const unchanged of [pending, processing, completed]) {
          expect(await storedPayment(storage, unchanged.id)).toEqual(unchanged)
        }
        const moved = await replace(processing.id, processing.quote_id, later)
        expect(moved).toEqual({ ...processing, quote_id: fresh, updated_at: later })
        expect(await storedPayment(storage, processing.id)).toEqual(moved)
        expect(await harness.reader.paymentOfQuote(fresh)).toEqual(moved)
        // The quote it named is no longer its quote.
        expect(
          await storage.transaction((tx) =>
            tx.payments.replaceQuote(processing.id, processing.quote_id, brandId("qt", "qt_other"), later),
          ),
        ).toBeUndefined()
        expect(await storedPayment(storage, processing.id)).toEqual(moved)
      },
    },
    {
      id: "batches.lane-reads-and-moves",
      title:
        "findInBatch gives the named payments of one batch in id order; compareAndSetStatuses moves those still in the status it names, in one write, in id order; quotes.findMany gives the company's quotes among the ids",
      run: async (harness) => {
        const { storage, engine } = harness
        const ids = counterIds()
        const company = ids.next("cmp")
        const [batchX, batchY] = [ids.next("pb"), ids.next("pb")]
        const at = "2030-06-02T00:00:00.000Z"
        const base = ids.next("pay")
        const row = batchPaymentRows(company, base, at)
        const [a, b, c, d] = [
          row("_a1", batchX, "pending"),
          row("__1", batchX, "pending"),
          row("_B1", batchX, "processing"),
          row("_B2", batchX, "completed"),
        ]
        const other = row("_B0", batchY, "pending")
        const loose = row("_B3", null, "pending")
        await storage.transaction(async (tx) => {
          for (const payment of [a, b, c, d, other, loose]) await tx.payments.insertIfNew(payment!)
        })
        const unknown = brandId("pay", "pay_unknown")
        const find = (batch: PaymentBatchId, wanted: ReadonlyArray<PaymentRecord["id"]>) =>
          storage.transaction((tx) => tx.payments.findInBatch(batch, wanted))
        expect(await find(batchX, [a!.id, other.id, c!.id, loose.id, unknown, b!.id])).toEqual([c, b, a])
        expect(await find(batchY, [a!.id, other.id])).toEqual([other])
        expect(await find(batchX, [])).toEqual([])

        const later = "2030-06-02T00:00:01.000Z"
        const moved = await storage.transaction((tx) =>
          tx.payments.compareAndSetStatuses([a!.id, c!.id, d!.id, unknown, b!.id, other.id], "pending", "processing", {
            updated_at: later,
          }),
        )
        const started = [b, a, other].map((p) => ({ ...p!, status: "processing", updated_at: later }))
        expect(moved).toEqual([...started].sort((p, q) => (p.id < q.id ? -1 : 1)))
        for (const payment of started) expect(await storedPayment(storage, payment.id)).toEqual(payment)
        for (const untouched of [c, d, loose]) expect(await storedPayment(storage, untouched!.id)).toEqual(untouched)
        // Moved once: the same compare-and-set again finds none of them in the status it names.
        expect(
          await storage.transaction((tx) =>
            tx.payments.compareAndSetStatuses([a!.id, b!.id], "pending", "failed", { updated_at: later }),
          ),
        ).toEqual([])
        expect(
          await storage.transaction((tx) =>
            tx.payments.compareAndSetStatuses([], "pending", "failed", { updated_at: later }),
          ),
        ).toEqual([])

        const paying = await payingCompany(harness)
        const stranger = await payingCompany(harness)
        const quote = (owner: typeof paying, amount: number) =>
          quoteFor(engine, owner.actor, owner.company.id, owner.from, owner.to, amount)
        const [q1, q2, q3] = [await quote(paying, 10), await quote(paying, 11), await quote(stranger, 12)]
        const stored = (id: string) => storage.transaction((tx) => tx.quotes.find(paying.company.id, brandId("qt", id)))
        const found = await storage.transaction((tx) =>
          tx.quotes.findMany(
            paying.company.id,
            [q3.id, q2.id, brandId("qt", "qt_unknown"), q1.id].map((id) => brandId("qt", id)),
          ),
        )
        expect([...found].sort((p, q) => (p.id < q.id ? -1 : 1))).toEqual(
          [await stored(q1.id), await stored(q2.id)].sort((p, q) => (p!.id < q!.id ? -1 : 1)),
        )
        expect(await storage.transaction((tx) => tx.quotes.findMany(paying.company.id, []))).toEqual([])
      },
    },
    {
      id: "batches.process-and-complete",
      title:
        "a batch holds its payments until processed, then runs each once in its lanes and start slots, repricing expired quotes, and ends with exact counts and one PaymentBatchCompletedEvent",
      run: async (harness) => {
        const { clock, storage, paymentProvider } = harness
        // Two lanes for four payments; a high rate, so that each start slot is 2 ms of a stopped clock.
        const engine = harness.batchEngine({ concurrency: 2, perSecond: 1000 })
        const paying = await payingCompany(harness)
        const { actor, company } = paying
        const t0 = clock.now().toISOString()
        const { batch } = await createBatch(engine, paying, { label: "May payroll", metadata: { run: 5 } })
        clock.advance(1000)
        const t1 = clock.now().toISOString()
        const added = []
        for (const [i, amount] of [10, 11.13, 12, 13, 14].entries()) {
          added.push(await payInBatch(engine, paying, batch.id, amount, `batch-${i}`))
        }
        for (const { payment } of added) {
          expect(await storedPayment(storage, payment.id)).toMatchObject({
            status: "pending",
            payment_batch_id: batch.id,
          })
        }
        expect(await storedBatch(storage, batch.id)).toMatchObject({ total_count: 5, updated_at: t1, created_at: t0 })
        clock.advance(1000)
        const t2 = clock.now().toISOString()
        const dropped = added[4]!.payment
        expect((await engine.payments.cancel(actor, company.id, dropped.id)).status).toBe("cancelled")
        expect(await storedPayment(storage, dropped.id)).toMatchObject({ payment_batch_id: null, updated_at: t2 })
        expect(await storedBatch(storage, batch.id)).toMatchObject({ total_count: 4, updated_at: t2 })
        const kept = added.slice(0, 4)
        const keptIds = kept.map(({ payment }) => payment.id)
        // Held: a job run starts none of them.
        await runAllDue(engine)
        for (const id of keptIds) expect((await storedPayment(storage, id))?.status).toBe("pending")
        expect(submissionsOf(paymentProvider.submissions, [...keptIds, dropped.id])).toEqual([])

        // Their quotes expire before the batch runs: the batch prices them again.
        clock.advance(quoteLifetimeMs + 1)
        const t3 = clock.now().toISOString()
        const processed = await engine.paymentBatches.process(actor, company.id, batch.id)
        expect(processed).toMatchObject({ status: "processing", total_count: 4, submitted_at: t3, updated_at: t3 })
        await expectRefusal(
          engine.paymentBatches.process(actor, company.id, batch.id),
          "conflict",
          "status",
          batchMessages.alreadyProcessing,
        )
        await expectRefusal(
          payInBatch(engine, paying, batch.id, 9, "late"),
          "invalid",
          "payment_batch_id",
          batchMessages.full,
        )
        await expectRefusal(
          engine.payments.cancel(actor, company.id, keptIds[0]!),
          "invalid",
          "status",
          batchMessages.paymentInRunningBatch,
        )
        clock.advance(1000)
        const t4 = clock.now().toISOString()
        expect((await runAllDue(engine)).failed).toBe(0)

        const done = await engine.paymentBatches.get(actor, company.id, batch.id)
        expect(done).toMatchObject({
          status: "completed_with_failures",
          total_count: 4,
          succeeded_count: 3,
          failed_count: 1,
          submitted_at: t3,
          completed_at: t4,
          created_at: t0,
          updated_at: t4,
        })
        // Four payments took one slot each, an interval at the rate apart from the run's time.
        expect((await storedBatch(storage, batch.id))?.next_slot_at).toBe(plusMs(t4, 4 * startSlotIntervalMs(1000)))
        const listed = await engine.payments.list(actor, company.id, { payment_batch_id: batch.id })
        expect(listed.data.map((p) => [p.id, p.status])).toEqual([
          [keptIds[0], "completed"],
          [keptIds[1], "failed"],
          [keptIds[2], "completed"],
          [keptIds[3], "completed"],
        ])
        // Each was submitted once, for what its first quote said, through a new quote of its own.
        const submitted = submissionsOf(paymentProvider.submissions, keptIds)
        expect(submitted.map((s) => [s.paymentId, s.sourceAmount, s.answer]).sort()).toEqual(
          kept
            .map(({ payment, quote }, i) => [payment.id, quote.source_amount, i === 1 ? "failed" : "completed"])
            .sort(),
        )
        for (const { payment, quote } of kept) {
          const now = listed.data.find((p) => p.id === payment.id)!
          expect(now.quote_id).not.toBe(quote.id)
          expect((await harness.reader.paymentOfQuote(now.quote_id))?.id).toBe(payment.id)
        }
        const events = await batchEventsOf(harness, company.id)
        expect(events.map((e) => [e.event, e.resource_id])).toEqual([
          ["PaymentEvents::CancelledEvent", dropped.id],
          ["PaymentBatchCompletedEvent", batch.id],
        ])
        expect(JSON.parse(events[1]!.payload)).toEqual({
          event: "PaymentBatchCompletedEvent",
          timestamp: t4,
          company_id: company.id,
          resource_id: batch.id,
          actor_id: null,
        })
        await expectRefusal(
          engine.paymentBatches.process(actor, company.id, batch.id),
          "invalid",
          "status",
          batchMessages.notBuilding,
        )

        // A batch whose payments all fail ends failed; an empty one cannot be processed.
        const failing = (await createBatch(engine, paying)).batch
        await payInBatch(engine, paying, failing.id, 1.13, "fail-1")
        await payInBatch(engine, paying, failing.id, 2.13, "fail-2")
        await engine.paymentBatches.process(actor, company.id, failing.id)
        await runAllDue(engine)
        expect(await engine.paymentBatches.get(actor, company.id, failing.id)).toMatchObject({
          status: "failed",
          total_count: 2,
          succeeded_count: 0,
          failed_count: 2,
        })
        const empty = (await createBatch(engine, paying)).batch
        await expectRefusal(
          engine.paymentBatches.process(actor, company.id, empty.id),
          "invalid",
          "status",
          batchMessages.empty,
        )
        expect((await batchEventsOf(harness, company.id)).map((e) => [e.event, e.resource_id]).slice(2)).toEqual([
          ["PaymentBatchCompletedEvent", failing.id],
        ])
      },
    },
    {
      id: "batches.process-races-cancel",
      title:
        "a batch whose only payment is cancelled while it is being processed is either processed with it or left building without it, never processing with nothing to run",
      run: async (harness) => {
        const engine = harness.batchEngine({})
        const paying = await payingCompany(harness)
        const { actor, company } = paying
        // Where transactions overlap, the two calls meet in the database; elsewhere they take turns.
        for (let round = 0; round < 10; round += 1) {
          const { batch } = await createBatch(engine, paying)
          const { payment } = await payInBatch(engine, paying, batch.id, 5, `race-${round}`)
          const [cancelled, processed] = await Promise.allSettled([
            engine.payments.cancel(actor, company.id, payment.id),
            engine.paymentBatches.process(actor, company.id, batch.id),
          ])
          const stored = await storedBatch(harness.storage, batch.id)
          if (processed.status === "fulfilled") {
            expect(cancelled.status).toBe("rejected")
            expect(stored).toMatchObject({ status: "processing", total_count: 1 })
          } else {
            expect(cancelled.status).toBe("fulfilled")
            expect(stored).toMatchObject({ status: "building", total_count: 0 })
          }
          await runAllDue(engine)
        }
      },
    },
    {
      id: "batches.expiry",
      title:
        "a batch still building seven days after it was made expires and cancels its held payments, with their events; a cancelled held payment leaves its batch",
      run: async (harness) => {
        const { clock, storage } = harness
        const engine = harness.batchEngine({})
        const paying = await payingCompany(harness)
        const { actor, company } = paying
        // The runner exists before the clock moves: graphile-worker's runner follows the engine's
        // clock only from its first run on.
        await runAllDue(engine)
        const { batch } = await createBatch(engine, paying)
        const held = [
          await payInBatch(engine, paying, batch.id, 3, "held-1"),
          await payInBatch(engine, paying, batch.id, 4, "held-2"),
          await payInBatch(engine, paying, batch.id, 5, "held-3"),
        ].map(({ payment }) => payment.id)
        expect((await engine.payments.cancel(actor, company.id, held[1]!)).status).toBe("cancelled")
        expect((await engine.paymentBatches.get(actor, company.id, batch.id)).total_count).toBe(2)
        const processedInTime = (await createBatch(engine, paying)).batch
        await payInBatch(engine, paying, processedInTime.id, 6, "in-time")
        await engine.paymentBatches.process(actor, company.id, processedInTime.id)

        // A minute short of seven days, then a minute past: a runner that keeps due times in the
        // database's time (graphile-worker) is off by the milliseconds the wall clock moved on.
        clock.advance(batchLifetimeMs - 60_000)
        await runAllDue(engine)
        expect((await engine.paymentBatches.get(actor, company.id, batch.id)).status).toBe("building")
        expect((await engine.paymentBatches.get(actor, company.id, processedInTime.id)).status).toBe("completed")
        clock.advance(120_000)
        const expiredAt = clock.now().toISOString()
        await runAllDue(engine)
        expect(await engine.paymentBatches.get(actor, company.id, batch.id)).toMatchObject({
          status: "expired",
          total_count: 2,
          succeeded_count: 0,
          failed_count: 0,
          completed_at: null,
          updated_at: expiredAt,
        })
        expect(await engine.paymentBatches.get(actor, company.id, processedInTime.id)).toMatchObject({
          status: "completed",
        })
        expect(await storedPayment(storage, held[0]!)).toMatchObject({
          status: "cancelled",
          payment_batch_id: batch.id,
          updated_at: expiredAt,
        })
        expect(await storedPayment(storage, held[2]!)).toMatchObject({
          status: "cancelled",
          payment_batch_id: batch.id,
        })
        expect(await storedPayment(storage, held[1]!)).toMatchObject({ status: "cancelled", payment_batch_id: null })
        expect(submissionsOf(harness.paymentProvider.submissions, held)).toEqual([])
        const events = await batchEventsOf(harness, company.id)
        expect(events.map((e) => [e.event, e.resource_id])).toEqual([
          ["PaymentEvents::CancelledEvent", held[1]],
          ["PaymentBatchCompletedEvent", processedInTime.id],
          ["PaymentEvents::CancelledEvent", held[0]],
          ["PaymentEvents::CancelledEvent", held[2]],
        ])
        await expectRefusal(
          engine.paymentBatches.process(actor, company.id, batch.id),
          "invalid",
          "status",
          batchMessages.notBuilding,
        )
        await expectRefusal(
          payInBatch(engine, paying, batch.id, 7, "too-late"),
          "invalid",
          "payment_batch_id",
          batchMessages.full,
        )
      },
    },
  ],
}
