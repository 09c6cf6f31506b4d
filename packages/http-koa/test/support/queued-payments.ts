import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  openStorageFromUrl,
  randomIds,
  scryptHasher,
  systemClock,
} from "@payments-engine/adapters"
import { paymentRequest, quoteRequest, setUpPayer } from "@payments-engine/adapters/testing"
import { createEngine, type Engine, PaymentId, type Storage } from "@payments-engine/core"

/**
 * Pending payments queued through an engine of this process, which then lets the database go:
 * their execute_payment jobs wait for a service to run them.
 */
export const queuePayments = async (databaseUrl: string, count: number, label: string): Promise<Array<string>> => {
  const storage = await openStorageFromUrl(databaseUrl)
  const engine: Engine = createEngine({
    storage,
    clock: systemClock,
    ids: randomIds({ clock: systemClock }),
    hasher: scryptHasher({ cost: 2 ** 10 }),
    serverSecret: { read: async () => "queued-payments-server-secret-0123456789" },
    paymentProvider: createSandboxPaymentProvider(),
    bankLinker: createSandboxBankLinker(),
  })
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
