import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { afterAll } from "vitest"
import { childEnvironment, type LineWatcher, logMessage, startNode } from "./child-process.ts"

/** What {@link processRig} gives a test file of real processes. */
export interface ProcessRig {
  /** A temporary folder of the file (SQLite files, provider books), removed after it. */
  readonly folder: string
  /** The children still running; killed after the file. Add each one started. */
  readonly running: Set<LineWatcher>
  /** `DATABASE_URL` of the run: Postgres tests are skipped without it. */
  readonly serverUrl: string | undefined
  /** A URL of a fresh schema (and its graphile-worker schema) of that database, dropped after the file. */
  readonly postgresUrl: (name: string) => string
  /**
   * Starts `recording-service.ts` (the service with a provider that keeps its books in a file)
   * with `env` over ours, added to `running`, once it is listening.
   */
  readonly startRecordingService: (env: Record<string, string>) => Promise<LineWatcher>
}

const recordingService = [
  "--conditions=source",
  "--import",
  "tsx",
  "packages/http-koa/test/support/recording-service.ts",
]

/**
 * The set-up every test file of real service processes repeats: a folder, the children to kill
 * and the Postgres schemas to drop when the file ends (registered with vitest's `afterAll`).
 *
 * @example
 * const rig = processRig("shutdown")
 * const url = rig.postgresUrl("busy") // postgres://...?schema=shutdown_busy_<pid>_<time>
 */
export const processRig = (label: string): ProcessRig => {
  const folder = mkdtempSync(join(tmpdir(), `payments-engine-${label}-`))
  const running = new Set<LineWatcher>()
  const serverUrl = process.env.DATABASE_URL
  const dropSchemas: Array<string> = []
  afterAll(async () => {
    for (const service of running) service.child.kill("SIGKILL")
    rmSync(folder, { recursive: true, force: true })
    if (serverUrl === undefined || dropSchemas.length === 0) return
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    for (const schema of dropSchemas) await client.query(`drop schema if exists "${schema}" cascade`)
    await client.end()
  })
  return {
    folder,
    running,
    serverUrl,
    postgresUrl: (name) => {
      const schema = `${label}_${name}_${process.pid}_${Date.now()}`
      dropSchemas.push(schema, `${schema}_graphile_worker`, `${schema}_rate_limits`)
      const url = new URL(serverUrl as string)
      url.searchParams.set("schema", schema)
      return url.toString()
    },
    startRecordingService: async (env) => {
      const service = startNode(recordingService, childEnvironment({ PORT: "0", LOG_LEVEL: "info", ...env }))
      running.add(service)
      await service.waitForLine(logMessage("listening"))
      return service
    },
  }
}
