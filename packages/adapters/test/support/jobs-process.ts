/**
 * An engine process of its own for cut-connections.test.ts: opens the storage of the schema it
 * is given, starts its job runner (graphile-worker, one run per lane, each with its cron), writes
 * `started` on stdout, and on SIGTERM closes the engine and exits 0.
 *
 *   node --conditions=source --import tsx jobs-process.ts <connection string> <schema>
 */
import { testServerSecret } from "@payments-engine/contract-tests"
import { createEngine } from "@payments-engine/core"
import {
  createHttpWebhookTransport,
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  randomIds,
  scryptHasher,
  systemClock,
} from "../../src/index.ts"
import { openPostgresStorage } from "../../src/postgres.ts"

const [connectionString, schema] = process.argv.slice(2) as [string, string]
const engine = createEngine({
  storage: await openPostgresStorage({ connectionString, schema }),
  clock: systemClock,
  ids: randomIds(),
  hasher: scryptHasher(),
  serverSecret: testServerSecret,
  paymentProvider: createSandboxPaymentProvider(),
  bankLinker: createSandboxBankLinker(),
  webhookTransport: createHttpWebhookTransport(),
})
engine.jobs.start()
process.stdout.write("started\n")
process.on("SIGTERM", () => {
  void engine.close().then(() => process.exit(0))
})
