/**
 * A second process for `bench/batch-execution.bench.ts`: on the database of `DATABASE_URL`, runs
 * either the engine's jobs (`MODE=engine`, a provider that answers at once, no batch rate) or
 * empty jobs (`MODE=noop`), until SIGTERM. Prints `ready` once running.
 */
import { openStorageFromUrl } from "@payments-engine/adapters"
import { benchEngine, noopRunner } from "./bench-engine.ts"

const storage = await openStorageFromUrl(process.env.DATABASE_URL ?? "")
let stop: () => Promise<void>
if (process.env.MODE === "noop") {
  const runner = noopRunner(storage)
  runner.start()
  stop = async () => {
    await runner.stop()
    await storage.close()
  }
} else {
  const engine = benchEngine(storage, { batchExecution: { perSecond: Number.POSITIVE_INFINITY } })
  engine.jobs.start()
  stop = () => engine.close()
}
process.once("SIGTERM", () => {
  void stop().then(() => process.exit(0))
})
console.log("ready")
