import type {
  CompanyId,
  Engine,
  EventRecord,
  PaymentBatchFields,
  PaymentBatchId,
  PaymentBatchRecord,
  Storage,
} from "@payments-engine/core"
import type { Harness } from "./contract-harness.ts"
import type { PayingCompany } from "./payment-fixtures.ts"
import { quoteFor } from "./payment-fixtures.ts"

/** A batch row for port-level writes: building, empty, no key, every optional time null. */
export const batchRow = (
  id: PaymentBatchId,
  companyId: CompanyId,
  at: string,
  extra: Partial<Omit<PaymentBatchRecord, "id" | "company_id">> = {},
): PaymentBatchRecord => ({
  id,
  company_id: companyId,
  status: "building",
  label: null,
  idempotency_key: null,
  total_count: 0,
  succeeded_count: 0,
  failed_count: 0,
  metadata: "{}",
  machine_version: 1,
  submitted_at: null,
  completed_at: null,
  next_slot_at: null,
  created_at: at,
  updated_at: at,
  ...extra,
})

/** Makes a batch of the paying company through the engine, as `POST .../payment_batches` does. */
export const createBatch = (engine: Engine, paying: PayingCompany, fields: PaymentBatchFields = {}) =>
  engine.paymentBatches.create(paying.actor, paying.company.id, { payment_batch: fields })

/** Quotes `amount` USD and adds a payment of it to the batch, with business key `key`. */
export const payInBatch = async (
  engine: Engine,
  paying: PayingCompany,
  batchId: PaymentBatchId,
  amount: number,
  key: string,
) => {
  const quote = await quoteFor(engine, paying.actor, paying.company.id, paying.from, paying.to, amount)
  const { payment } = await engine.payments.create(paying.actor, paying.company.id, {
    payment_instruction: {
      payment_quote_id: quote.id,
      reason: "wages_salary",
      idempotency_key: key,
      payment_batch_id: batchId,
    },
  })
  return { quote, payment }
}

/** A storage read of a batch, by id. */
export const storedBatch = (storage: Storage, id: PaymentBatchId): Promise<PaymentBatchRecord | undefined> =>
  storage.transaction((tx) => tx.paymentBatches.findById(id))

/**
 * A meeting point for `parties` callers: each call returns a promise that settles once all of
 * them have called. Used only where transactions overlap, so racers meet inside them.
 */
export const meetingPoint = (parties: number): (() => Promise<void>) => {
  let arrived = 0
  let open: () => void = () => {}
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return () => {
    arrived += 1
    if (arrived === parties) open()
    return opened
  }
}

/** An ISO timestamp `ms` milliseconds after `iso`. */
export const plusMs = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString()

/** The events a batch and its payments write: payment events and the batch's completion, in id order. */
export const batchEventsOf = async (harness: Harness, companyId: CompanyId): Promise<ReadonlyArray<EventRecord>> =>
  (await harness.reader.eventsOfCompany(companyId)).filter(
    (e) => e.event === "PaymentBatchCompletedEvent" || e.event.startsWith("PaymentEvents::"),
  )
