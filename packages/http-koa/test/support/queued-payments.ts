import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  openStorageFromUrl,
  randomIds,
  scryptHasher,
  systemClock,
} from "@payments-engine/adapters"
import { paymentRequest, quoteRequest, setUpPayer } from "@payments-engine/adapters/testing"
import { createEngine, type Engine, PaymentBatchId, PaymentId, type Storage } from "@payments-engine/core"

/** An engine of this process on the database, with the sandbox providers, to queue work for a service. */
const queuingEngine = async (databaseUrl: string): Promise<Engine> => {
  const storage = await openStorageFromUrl(databaseUrl)
  return createEngine({
    storage,
    clock: systemClock,
    ids: randomIds({ clock: systemClock }),
    hasher: scryptHasher({ cost: 2 ** 10 }),
    serverSecret: { read: async () => "queued-payments-server-secret-0123456789" },
    paymentProvider: createSandboxPaymentProvider(),
    bankLinker: createSandboxBankLinker(),
  })
}

/**
 * Pending payments queued through an engine of this process, which then lets the database go:
 * their execute_payment jobs wait for a service to run them.
 */
export const queuePayments = async (databaseUrl: string, count: number, label: string): Promise<Array<string>> => {
  const engine = await queuingEngine(databaseUrl)
  const payer = await setUpPayer(engine, label)
  const ids: Array<string> = []
  for (let i = 0; i < count; i++) {
    const quote = await engine.quotes.create(payer.actor, payer.companyId, quoteRequest(payer, i))
    ids.push(
      (await engine.payments.create(payer.actor, payer.companyId, paymentRequest(quote.id, i, label))).payment.id,
    )
  }
  await engine.close()
  return ids
}

/**
 * A batch of `count` payments, processed through an engine of this process, which then lets the
 * database go: its process_batch job waits for a service to run it.
 */
export const queueBatch = async (
  databaseUrl: string,
  count: number,
  label: string,
): Promise<{ readonly batchId: string; readonly paymentIds: ReadonlyArray<string> }> => {
  const engine = await queuingEngine(databaseUrl)
  const payer = await setUpPayer(engine, label)
  const { batch } = await engine.paymentBatches.create(payer.actor, payer.companyId, { payment_batch: { label } })
  const paymentIds: Array<string> = []
  for (let i = 0; i < count; i++) {
    const quote = await engine.quotes.create(payer.actor, payer.companyId, quoteRequest(payer, i))
    const body = paymentRequest(quote.id, i, label)
    const request = { payment_instruction: { ...body.payment_instruction, payment_batch_id: batch.id } }
    paymentIds.push((await engine.payments.create(payer.actor, payer.companyId, request)).payment.id)
  }
  await engine.paymentBatches.process(payer.actor, payer.companyId, batch.id)
  await engine.close()
  return { batchId: batch.id, paymentIds }
}

/** A batch as the database has it now: status and counts. */
export const batchOf = async (databaseUrl: string, batchId: string) => {
  const storage = await openStorageFromUrl(databaseUrl)
  try {
    return await storage.transaction((tx) => tx.paymentBatches.findById(PaymentBatchId.make(batchId)))
  } finally {
    await storage.close()
  }
}

/** Polls until the batch has ended or `timeoutMs` has passed; returns it as it last was. */
export const awaitBatchEnded = async (databaseUrl: string, batchId: string, timeoutMs: number) => {
  const since = Date.now()
  const storage = await openStorageFromUrl(databaseUrl)
  const read = () => storage.transaction((tx) => tx.paymentBatches.findById(PaymentBatchId.make(batchId)))
  try {
    let batch = await read()
    while ((batch?.status === "processing" || batch?.status === "building") && Date.now() - since < timeoutMs) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      batch = await read()
    }
    return batch
  } finally {
    await storage.close()
  }
}

const statusesIn = (storage: Storage, ids: ReadonlyArray<string>) =>
  storage.transaction(async (tx) =>
    Promise.all(ids.map(async (id) => (await tx.payments.findById(PaymentId.make(id)))?.status)),
  )

/** The statuses of payments, read from the database. */
export const statusesOf = async (databaseUrl: string, ids: ReadonlyArray<string>) => {
  const storage = await openStorageFromUrl(databaseUrl)
  try {
    return await statusesIn(storage, ids)
  } finally {
    await storage.close()
  }
}

/** Polls until every payment has completed or `timeoutMs` has passed; returns the last statuses. */
export const awaitCompleted = async (databaseUrl: string, ids: ReadonlyArray<string>, timeoutMs: number) => {
  const since = Date.now()
  const storage = await openStorageFromUrl(databaseUrl)
  try {
    let statuses = await statusesIn(storage, ids)
    while (statuses.some((status) => status !== "completed") && Date.now() - since < timeoutMs) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      statuses = await statusesIn(storage, ids)
    }
    return statuses
  } finally {
    await storage.close()
  }
}
