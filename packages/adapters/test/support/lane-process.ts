/**
 * An engine process of its own for endpoint-changes-processes.test.ts: opens the storage of the
 * schema it is given, waits until its channel of endpoint changes listens, runs its jobs, and
 * writes `told <endpoint id>` on stdout each time one of its lanes is told of that endpoint.
 *
 *   node --conditions=source --import tsx lane-process.ts <connection string> <schema>
 */
import { setTimeout as sleep } from "node:timers/promises"
import { testServerSecret } from "@payments-engine/contract-tests"
import { createEngine, type EndpointChanges, type Storage } from "@payments-engine/core"
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
const storage = await openPostgresStorage({ connectionString, schema })
const changes = storage.endpointChanges!

// Until the LISTEN session is open every watch is told at once; this process waits for it.
for (;;) {
  let told = false
  changes.watch("we_probe", changes.mark(), () => {
    told = true
  })()
  if (!told) break
  await sleep(20)
}

const reporting: EndpointChanges = {
  announce: (id) => changes.announce(id),
  mark: () => changes.mark(),
  watch: (id, since, told) =>
    changes.watch(id, since, () => {
      process.stdout.write(`told ${id}\n`)
      told()
    }),
}
const engine = createEngine({
  storage: new Proxy(storage, {
    get: (target, name) => (name === "endpointChanges" ? reporting : Reflect.get(target, name)),
  }) as Storage,
  clock: systemClock,
  ids: randomIds(),
  hasher: scryptHasher(),
  serverSecret: testServerSecret,
  paymentProvider: createSandboxPaymentProvider(),
  bankLinker: createSandboxBankLinker(),
  webhookTransport: createHttpWebhookTransport({ allowLoopback: true }),
  allowLocalWebhookUrls: true,
  webhookTimeoutMs: 5_000,
})
engine.jobs.start()
process.stdout.write("ready\n")
process.on("SIGTERM", () => {
  void engine.close().then(() => process.exit(0))
})
