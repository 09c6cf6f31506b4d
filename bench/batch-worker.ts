/**
 * A second process for `bench/batch-execution.bench.ts`: on the database of `DATABASE_URL`, runs
 * the engine's jobs (a provider that answers at once, no batch rate) and empty jobs, as the first
 * process does, until SIGTERM. Prints `ready` once running.
 */
import { openStorageFromUrl } from "@payments-engine/adapters"
import { benchEngine, noopRunner } from "./bench-engine.ts"

const storage = await openStorageFromUrl(process.env.DATABASE_URL ?? "")
const engine = benchEngine(storage, { batchExecution: { perSecond: Number.POSITIVE_INFINITY } })
const runner = noopRunner(storage)
engine.jobs.start()
runner.start()
process.once("SIGTERM", () => {
  void Promise.all([runner.stop(), engine.jobs.stop()])
    .then(() => storage.close())
    .then(() => process.exit(0))
})
console.log("ready")
