import type { ProcessLiveness } from "@payments-engine/core"
import pg from "pg"

/** Options of {@link postgresLiveness}. */
export interface PostgresLivenessOptions {
  readonly connectionString: string
  readonly connectionTimeoutMs: number
}

const idPattern = /^pg:(\d+):(\d+)$/

/**
 * The liveness of the processes sharing a Postgres database: each holds one session open, and is
 * known by that session's backend pid and start (microseconds), which `pg_stat_activity` lists
 * while the session lives. A process killed outright closes its socket, the server ends the
 * session, and the row is gone: no heartbeat to wait for. A session lost while the process runs
 * (a network break) makes the process look dead; the next `self()` opens a new session, so the
 * process goes on under a new id and its old claims are taken over, never run twice (their
 * journal writes check the claim's owner).
 *
 * @example
 * declare const connectionString: string
 * const processes = postgresLiveness({ connectionString, connectionTimeoutMs: 10_000 })
 * const id = await processes.self() // "pg:4242:1767225600123456"
 */
export const postgresLiveness = (options: PostgresLivenessOptions): ProcessLiveness & { close(): Promise<void> } => {
  let session: Promise<{ readonly client: pg.Client; readonly id: string }> | undefined
  let closed = false
  /**
   * The session's lookups, one after another: a pg client queues a query sent while another
   * runs only with a deprecation warning, and pg 9 will refuse it.
   */
  let lookups: Promise<unknown> = Promise.resolve()
  const open = async () => {
    const client = new pg.Client({
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectionTimeoutMs,
    })
    const forget = () => {
      session = undefined
    }
    client.on("error", forget)
    client.on("end", forget)
    await client.connect()
    const { rows } = await client.query<{ pid: number; started: string }>(
      "select pid, (extract(epoch from backend_start) * 1000000)::bigint::text as started from pg_stat_activity where pid = pg_backend_pid()",
    )
    const row = rows[0]
    if (row === undefined) throw new Error("pg_stat_activity does not list this session")
    return { client, id: `pg:${row.pid}:${row.started}` }
  }
  const current = () => {
    if (closed) return Promise.reject(new Error("storage is closed"))
    session ??= open().catch((error: unknown) => {
      session = undefined
      throw error
    })
    return session
  }
  return {
    self: async () => (await current()).id,
    isRunning: async (id) => {
      const match = idPattern.exec(id)
      if (match === null) return false
      const { client } = await current()
      const asked = lookups.then(() =>
        client.query(
          "select 1 from pg_stat_activity where pid = $1 and (extract(epoch from backend_start) * 1000000)::bigint::text = $2",
          [Number(match[1]), match[2]],
        ),
      )
      lookups = asked.catch(() => undefined)
      const { rows } = await asked
      return rows.length > 0
    },
    close: async () => {
      closed = true
      const open = session
      session = undefined
      if (open !== undefined) await (await open.catch(() => undefined))?.client.end()
    },
  }
}
