import { randomBytes } from "node:crypto"
import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  openSqliteStorage,
  randomIds,
  scryptHasher,
  systemClock,
} from "@payments-engine/adapters"
import { type Actor, createEngine, isDomainError } from "@payments-engine/core"

/**
 * Creates a company, its entity and a recipient through the engine's Promise API on an
 * in-memory SQLite database, then shows how a refused request looks.
 */
export const runExample = async (log: (...values: unknown[]) => void = console.log) => {
  const storage = await openSqliteStorage({ filename: ":memory:" })
  const serverSecret = randomBytes(32).toString("base64url")
  const engine = createEngine({
    storage,
    clock: systemClock,
    ids: randomIds(),
    hasher: scryptHasher(),
    // Keys the fingerprints of Idempotency-Key records. A random one does for a database that lives
    // in memory; with a database on disk, give every process the same secret, kept out of that database.
    serverSecret: { read: async () => serverSecret },
    paymentProvider: createSandboxPaymentProvider(),
    bankLinker: createSandboxBankLinker(),
  })
  try {
    const workspace = await engine.access.ensureWorkspace("acme-payments")
    const actor: Actor = { workspaceId: workspace.id, scope: "write" }

    const company = await engine.companies.create(actor, { name: "Acme Inc", country: "US", default_currency: "USD" })
    const entity = await engine.entities.create(actor, company.id, { name: "Acme Inc", country_alpha2: "US" })
    const recipient = await engine.recipients.create(actor, company.id, {
      name: "Jane Supplier",
      email: "jane@example.com",
    })
    log("created", { company: company.id, entity: entity.id, recipient: recipient.id })

    // A company has one active entity: the engine refuses a second one with the API's error.
    const refused = await engine.entities
      .create(actor, company.id, { name: "Acme Europe", country_alpha2: "DE" })
      .then(() => undefined)
      .catch((error: unknown) => {
        if (!isDomainError(error)) throw error
        return { kind: error.kind, errors: error.errors }
      })
    log("second entity refused", refused)

    return { company, entity, recipient, refused }
  } finally {
    await engine.close()
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  await runExample()
}
