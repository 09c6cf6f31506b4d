import { spawn } from "node:child_process"
import { once } from "node:events"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { graphileWorkerSchema } from "../src/postgres.ts"

/**
 * A connection the server cuts (a restart, `pg_terminate_backend`, a dropped database) while a
 * transaction holds it between two statements: the transaction fails and the process goes on,
 * on a new connection. The process is one of its own (test/support/cut-connection-process.ts)
 * because what is at stake is whether it survives.
 */
const connectionString = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : undefined
const schema = `pe_cut_connection_${process.pid}`

describe.skipIf(connectionString === undefined)("a connection cut by the server inside a transaction", () => {
  afterAll(async () => {
    const client = new pg.Client({ connectionString })
    await client.connect()
    for (const each of [schema, graphileWorkerSchema(schema)])
      await client.query(`drop schema if exists "${each}" cascade`)
    await client.end()
  })

  it("fails that transaction, and the next one commits on a new connection of the same process", async () => {
    const script = fileURLToPath(new URL("./support/cut-connection-process.ts", import.meta.url))
    const child = spawn(
      process.execPath,
      ["--conditions=source", "--import", "tsx", script, connectionString!, schema],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    )
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    const [code] = (await once(child, "exit")) as [number | null]
    expect({ code, output }).toEqual({
      code: 0,
      output: "the transaction of the cut connection failed\nthe next transaction wrote workspace ws_after_the_cut\n",
    })
  })
})
