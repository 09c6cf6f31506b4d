import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  openStorageFromUrl,
  randomIds,
  scryptHasher,
  systemClock,
} from "@payments-engine/adapters"
import type { KyselyStorage } from "@payments-engine/adapters/kysely"
import { paymentRequest, quoteRequest, setUpPayer } from "@payments-engine/adapters/testing"
import { createEngine, type Engine, PaymentBatchId, PaymentId, type Storage } from "@payments-engine/core"

/** The server secret of the queuing engine: a service that is to open what it sealed runs with it. */
export const queuingServerSecret = "queued-payments-server-secret-0123456789"

/**
 * An engine of this process on the database, with the sandbox providers, to queue work for a
 * service; it takes webhook endpoints on this machine, as a sandbox service does.
 */
const queuingEngine = async (databaseUrl: string): Promise<Engine> => {
  const storage = await openStorageFromUrl(databaseUrl)
  return createEngine({
    storage,
    clock: systemClock,
    ids: randomIds({ clock: systemClock }),
    hasher: scryptHasher({ cost: 2 ** 10 }),
    serverSecret: { read: async () => queuingServerSecret },
    paymentProvider: createSandboxPaymentProvider(),
    bankLinker: createSandboxBankLinker(),
    allowLocalWebhookUrls: true,
  })
}

/**
 * An endpoint at `url` subscribed to `entity.updated`, and `count` updates of the payer's entity,
 * queued through an engine of this process, which then lets the database go: their deliveries
 * wait for a service to send them. Answers the endpoint's secret.
 */
export const queueWebhookDeliveries = async (databaseUrl: string, url: string, count: number, label: string) => {
  const engine = await queuingEngine(databaseUrl)
  const payer = await setUpPayer(engine, label)
  const endpoint = await engine.webhookEndpoints.create(payer.actor, payer.companyId, {
    url,
    event_names: ["entity.updated"],
  })
  const entity = (await engine.entities.list(payer.actor, payer.companyId)).data[0]!
  for (let i = 0; i < count; i++) {
    await engine.entities.update(payer.actor, payer.companyId, entity.id, { name: `${label} ${i}` })
  }
  await engine.close()
  return { secret: endpoint.webhook_secret }
}

/** The statuses of every webhook delivery of the database. */
export const deliveryStatusesOf = async (databaseUrl: string) => {
  const storage = (await openStorageFromUrl(databaseUrl)) as KyselyStorage
  try {
    const rows = await storage.db.selectFrom("webhook_deliveries").select("status").execute()
    return rows.map((row) => row.status)
  } finally {
    await storage.close()
  }
}

/**
 * Two workspaces' pending payments, `count` each, queued through an engine of this process, which
 * then lets the database go. With `endpoint`, workspace A first subscribes `endpoint.count`
 * endpoints at `endpoint.url` to its entity updates and completed payments, and updates its entity
 * `count` times, so deliveries to each are due beside the payments; workspace B has no webhook.
 */
export const queueTwoWorkspaces = async (
  databaseUrl: string,
  count: number,
  endpoint?: { readonly url: string; readonly count: number },
) => {
  const engine = await queuingEngine(databaseUrl)
  const a = await setUpPayer(engine, "isolation-a")
  const b = await setUpPayer(engine, "isolation-b")
  if (endpoint !== undefined) {
    for (let i = 0; i < endpoint.count; i++) {
      await engine.webhookEndpoints.create(a.actor, a.companyId, {
        url: `${endpoint.url}/${i}`,
        event_names: ["entity.updated", "PaymentEvents::CompletedEvent"],
      })
    }
    const entity = (await engine.entities.list(a.actor, a.companyId)).data[0]!
    for (let i = 0; i < count; i++) {
      await engine.entities.update(a.actor, a.companyId, entity.id, { name: `isolation ${i}` })
    }
  }
  const pay = async (payer: typeof a, label: string) => {
    const ids: Array<PaymentId> = []
    for (let i = 0; i < count; i++) {
      const quote = await engine.quotes.create(payer.actor, payer.companyId, quoteRequest(payer, i))
      ids.push(
        (await engine.payments.create(payer.actor, payer.companyId, paymentRequest(quote.id, i, label))).payment.id,
      )
    }
    return ids
  }
  const inA = await pay(a, "isolation-a")
  const inB = await pay(b, "isolation-b")
  await engine.close()
  return { inA, inB }
}

/** When each payment was last written (its completion, once completed), in ms since the epoch. */
export const updatedAtOf = async (databaseUrl: string, ids: ReadonlyArray<PaymentId>) => {
  const storage = (await openStorageFromUrl(databaseUrl)) as KyselyStorage
  try {
    const rows = await storage.db.selectFrom("payments").select(["id", "updated_at"]).where("id", "in", ids).execute()
    return rows.map((row) => Date.parse(row.updated_at))
  } finally {
    await storage.close()
  }
}

/**
 * Pending payments queued through an engine of this process, which then lets the database go:
 * their execute_payment jobs wait for a service to run them.
 */
export const queuePayments = async (databaseUrl: string, count: number, label: string): Promise<Array<PaymentId>> => {
  const engine = await queuingEngine(databaseUrl)
  const payer = await setUpPayer(engine, label)
  const ids: Array<PaymentId> = []
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
