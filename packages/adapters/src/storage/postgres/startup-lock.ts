import pg from "pg"

/**
 * The first key of the start-up lock's two-key advisory lock: it keeps the lock apart from other
 * users' advisory locks, and from Kysely's one-key migration lock. (`'pe'` and `'st'` as bytes.)
 */
const startupLockSpace = 0x7065_7374

/** How long a process waits for another one's start-up before it gives up. */
export const startupLockTimeoutMs = 60_000

/** Options of {@link withStartupLock}. */
export interface StartupLockOptions {
  readonly connectionString: string
  /** The storage's schema: starts on other schemas of the database do not wait. The connection's default schema when absent. */
  readonly schema?: string
  /** {@link startupLockTimeoutMs} by default. */
  readonly timeoutMs?: number
  /** How long to wait for the connection; 10 000 ms by default. */
  readonly connectionTimeoutMs?: number
}

/**
 * Runs `work` while this process alone starts on the storage's schema: migrations and one-time
 * set-up (a first API key) would otherwise race when several processes start on an empty
 * database at once. The lock is a Postgres session advisory lock on a connection of its own, so
 * it lasts exactly as long as `work` here, and a process that dies mid-start releases it with its
 * connection. Rejects when another process holds it longer than `timeoutMs`.
 *
 * @example
 * declare const connectionString: string, migrate: () => Promise<void>
 * await withStartupLock({ connectionString, schema: "payments" }, () => migrate())
 */
export const withStartupLock = async <T>(options: StartupLockOptions, work: () => Promise<T>): Promise<T> => {
  const { connectionString, schema, timeoutMs = startupLockTimeoutMs, connectionTimeoutMs = 10_000 } = options
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: connectionTimeoutMs })
  // A connection that breaks while held must not crash the process; the next query reports it.
  client.on("error", () => {})
  await client.connect()
  try {
    await client.query(`set lock_timeout = ${Math.max(1, Math.trunc(timeoutMs))}`)
    try {
      await client.query("select pg_advisory_lock($1, hashtext(coalesce($2, current_schema())))", [
        startupLockSpace,
        schema ?? null,
      ])
    } catch (error) {
      if ((error as { code?: unknown }).code !== "55P03") throw error
      throw new Error(
        `another process has been starting on this database for more than ${Math.round(timeoutMs / 1000)} s (the start-up lock is held)`,
        { cause: error },
      )
    }
    return await work()
  } finally {
    // Ending the session releases the lock; an explicit unlock first would only add a round trip.
    await client.end().catch(() => undefined)
  }
}
