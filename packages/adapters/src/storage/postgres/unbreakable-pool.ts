import pg from "pg"

/**
 * A pg pool whose broken connections never end the process. pg-pool hears the error of an idle
 * connection only; a connection that is checked out between two statements (inside a
 * transaction, or held by graphile-worker) and is then cut by the server (a restart,
 * `pg_terminate_backend`, a dropped database) emits an error that nobody hears, and Node ends
 * the process for it. Every connection gets a listener of its own for its whole life: the
 * statement that next uses it fails, and the pool drops it when it is released.
 *
 * @example
 * const pool = unbreakablePool({ connectionString: "postgres://postgres@127.0.0.1:5432/test", max: 4 })
 */
export const unbreakablePool = (config: pg.PoolConfig): pg.Pool => {
  const pool = new pg.Pool(config)
  pool.on("error", () => {})
  pool.on("connect", (client) => {
    client.on("error", () => {})
  })
  return pool
}
