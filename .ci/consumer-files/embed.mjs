// Embeds the installed engine in a plain-Node program (no TypeScript, no loader) on a SQLite file,
// with the sandbox providers, and pays a recipient end to end: quote, payment, its job, completed.
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  openSqliteStorage,
  randomIds,
  sandboxExamples,
  scryptHasher,
  systemClock,
} from "@payments-engine/adapters"
import { createEngine } from "@payments-engine/core"

const folder = mkdtempSync(join(tmpdir(), "embedded-engine-"))
const serverSecret = randomBytes(32).toString("base64url")
const engine = createEngine({
  storage: await openSqliteStorage({ filename: join(folder, "payments.sqlite") }),
  clock: systemClock,
  ids: randomIds(),
  hasher: scryptHasher(),
  serverSecret: { read: async () => serverSecret },
  paymentProvider: createSandboxPaymentProvider(),
  bankLinker: createSandboxBankLinker(),
})
try {
  const workspace = await engine.access.ensureWorkspace("consumer")
  const actor = { workspaceId: workspace.id, scope: "write" }
  const company = await engine.companies.create(actor, { name: "Acme Inc", country: "US", default_currency: "USD" })
  const entity = await engine.entities.create(actor, company.id, { name: "Acme Inc", country_alpha2: "US" })
  const recipient = await engine.recipients.create(actor, company.id, { name: "Jane Supplier" })
  const account = await engine.bankAccounts.createForRecipient(actor, company.id, recipient.id, {
    entity_id: entity.id,
    beneficiary_details: sandboxExamples.US_ACH,
  })
  const funding = await engine.fundingAccounts.link(actor, entity.id, {})
  const quote = await engine.quotes.create(actor, company.id, {
    quote: {
      from_profile_id: funding.payment_profiles[0].id,
      to_profile_id: account.payment_profiles[0].id,
      instructed_amount: { amount: 125.5, currency: "USD" },
    },
  })
  const { payment } = await engine.payments.create(actor, company.id, {
    payment_instruction: { payment_quote_id: quote.id, reason: "goods_purchased", idempotency_key: "consumer-1" },
  })
  await engine.jobs.runDue()
  const paid = await engine.payments.get(actor, company.id, payment.id)
  console.log("payment", paid.id, paid.status, paid.instructed_amount)
  if (paid.status !== "completed" || paid.instructed_amount !== "125.50") process.exitCode = 1
} finally {
  await engine.close()
  rmSync(folder, { recursive: true, force: true })
}
