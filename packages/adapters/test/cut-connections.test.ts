import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { setImmediate as turn } from "node:timers/promises"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { graphileWorkerSchema, openPostgresStorage } from "../src/postgres.ts"

/**
 * Connections the server cuts (a restart, `pg_terminate_backend`, a dropped database) under a
 * process of ours: what is at stake is whether the process survives, so each runs in a process
 * of its own (test/support/).
 */
const connectionString = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : undefined
const schema = `pe_cut_connection_${process.pid}`

const startScript = (name: string): { child: ChildProcess; output: () => string } => {
  const script = fileURLToPath(new URL(`./support/${name}`, import.meta.url))
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", script, connectionString!, schema], {
    stdio: ["ignore", "pipe", "inherit"],
  })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString()
  })
  return { child, output: () => output }
}

describe.skipIf(connectionString === undefined)("connections cut by the server", () => {
  const admin = new pg.Client({ connectionString })
  afterAll(async () => {
    await admin.connect().catch(() => undefined)
    // A failed test may have left its lock's transaction open.
    await admin.query("rollback")
    for (const each of [schema, graphileWorkerSchema(schema)]) {
      await admin.query(`drop schema if exists "${each}" cascade`)
    }
    await admin.end()
  })

  it("inside a transaction: fails that transaction, and the next one commits on a new connection of the same process", async () => {
    const { child, output } = startScript("cut-connection-process.ts")
    const [code] = (await once(child, "exit")) as [number | null]
    expect({ code, output: output() }).toEqual({
      code: 0,
      output: "the transaction of the cut connection failed\nthe next transaction wrote workspace ws_after_the_cut\n",
    })
  })

  it("under graphile-worker's cron: the job runner tries again and the process goes on", async () => {
    await (await openPostgresStorage({ connectionString: connectionString!, schema })).close()
    await admin.connect()
    const crontabs = `"${graphileWorkerSchema(schema)}"._private_known_crontabs`
    // Every run's cron reads this table as it starts: held locked, each read waits, to be cut.
    await admin.query("begin")
    await admin.query(`lock table ${crontabs} in access exclusive mode`)
    const waiting = async () =>
      (
        await admin.query<{ pid: number }>("select pid from pg_locks where not granted and relation = $1::regclass", [
          crontabs,
        ])
      ).rows.map((row) => row.pid)
    const { child, output } = startScript("jobs-process.ts")
    const alive = () => {
      if (child.exitCode !== null) throw new Error(`the process ended (${child.exitCode}) with ${output()}`)
    }
    let cut: ReadonlyArray<number> = []
    while (cut.length === 0) {
      alive()
      cut = await waiting()
      await turn()
    }
    for (const pid of cut) await admin.query("select pg_terminate_backend($1)", [pid])
    // The cut reads fail; the cron reads again (and runs whose start failed start again), and waits.
    while (!(await waiting()).some((pid) => !cut.includes(pid))) {
      alive()
      await turn()
    }
    await admin.query("commit")
    alive()
    child.kill("SIGTERM")
    const [code] = (await once(child, "exit")) as [number | null]
    expect({ code, output: output() }).toEqual({ code: 0, output: "started\n" })
  })
})
