/**
 * A second process for `bench/batch-execution.bench.ts`: on the database of `DATABASE_URL`, runs
 * either the engine's jobs (`MODE=engine`, a provider that answers at once, no batch rate) or
 * empty jobs of kind `bench_noop` (`MODE=noop`), until SIGTERM. Prints `ready` once running.
 */
import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  openStorageFromUrl,
  randomIds,
  scryptHasher,
  systemClock,
} from "@payments-engine/adapters"
import { createEngine, defaultBatchExecution } from "@payments-engine/core"

const storage = await openStorageFromUrl(process.env.DATABASE_URL ?? "")
let stop: () => Promise<void>
if (process.env.MODE === "noop") {
  const runner = storage.createJobRunner(
    { kinds: [{ kind: "bench_noop" }], run: async () => {} },
    { clock: systemClock, concurrency: defaultBatchExecution.concurrency },
  )
  runner.start()
  stop = async () => {
    await runner.stop()
    await storage.close()
  }
} else {
  const engine = createEngine({
    storage,
    clock: systemClock,
    ids: randomIds(),
    hasher: scryptHasher(),
    serverSecret: { read: async () => "bench-server-secret-0123456789abcdefgh" },
    paymentProvider: createSandboxPaymentProvider(),
    bankLinker: createSandboxBankLinker(),
    batchExecution: { perSecond: Number.POSITIVE_INFINITY },
  })
  engine.jobs.start()
  stop = () => engine.close()
}
process.once("SIGTERM", () => {
  void stop().then(() => process.exit(0))
})
console.log("ready")
