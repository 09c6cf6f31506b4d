/**
 * A worker process for the crash test of the embedded runner: opens the SQLite file named by its
 * first argument, runs the jobs due there once, and prints each log line of the runner and then
 * its report as JSON lines. The `crash` job's handler records that it started (a line appended to
 * the file named by the second argument) and kills this process with SIGKILL, as a job that
 * brings its process down would.
 */
import { appendFileSync } from "node:fs"
import { systemClock } from "../../clock/system-clock.ts"
import { openSqliteStorage } from "../../storage/sqlite/sqlite-storage.ts"

const [filename, startsFile] = process.argv.slice(2)
if (filename === undefined || startsFile === undefined)
  throw new Error("usage: crashing-job-worker <sqlite file> <starts file>")

const storage = await openSqliteStorage({ filename })
const runner = storage.createJobRunner(
  {
    kinds: [{ kind: "crash" }],
    run: async () => {
      appendFileSync(startsFile, "started\n")
      process.kill(process.pid, "SIGKILL")
    },
  },
  {
    clock: systemClock,
    log: (line) => {
      process.stdout.write(
        `${JSON.stringify({ log: "error" in line && !("kind" in line) ? { error: String(line.error) } : line })}\n`,
      )
    },
  },
)
const report = await runner.runDue()
process.stdout.write(`${JSON.stringify({ report })}\n`)
await storage.close()
