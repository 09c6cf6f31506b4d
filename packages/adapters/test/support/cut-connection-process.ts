/**
 * A process of its own for cut-connections.test.ts: opens the storage of the schema it is given,
 * has the server cut the connection of its open transaction between two statements, and writes
 * on stdout what became of that transaction and of the next one. A process that an unheard
 * connection error ends writes neither line.
 *
 *   node --conditions=source --import tsx cut-connection-process.ts <connection string> <schema>
 */
import { setImmediate as turn } from "node:timers/promises"
import { brandId } from "@payments-engine/core"
import { sql } from "kysely"
import pg from "pg"
import { openPostgresStorage } from "../../src/postgres.ts"

const [connectionString, schema] = process.argv.slice(2) as [string, string]
const storage = await openPostgresStorage({ connectionString, schema })
const admin = new pg.Client({ connectionString })
await admin.connect()

const cut = await storage.db
  .transaction()
  .execute(async (trx) => {
    const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid
    await admin.query("select pg_terminate_backend($1)", [pid])
    // The backend writes its goodbye before it leaves pg_stat_activity; while this waits, the
    // process reads it on the idle connection of the transaction.
    while ((await admin.query("select 1 from pg_stat_activity where pid = $1", [pid])).rowCount !== 0) await turn()
    await turn()
    await sql`select 1`.execute(trx)
    return "the statement after the cut answered"
  })
  .catch(() => "the transaction of the cut connection failed")
process.stdout.write(`${cut}\n`)

const id = brandId("ws", "ws_after_the_cut")
const workspace = await storage.transaction((tx) =>
  tx.workspaces.insertOrGet({ id, name: "after the cut", created_at: "2026-12-01T12:00:00.000Z" }),
)
process.stdout.write(`the next transaction wrote workspace ${workspace.id}\n`)
await admin.end()
await storage.close()
