import { setTimeout as sleep } from "node:timers/promises"
import type pg from "pg"

/** The first wait after a failed statement of the cron, doubled after each failure up to the last. */
const firstRetryMs = 250
const longestRetryMs = 5_000

/**
 * The pool graphile-worker 0.16's `run` is given: `pool` itself, except that `query`, which only
 * its cron calls (its workers check connections out), is tried again until it answers. In 0.16 a
 * cron statement that fails (the database restarting, gone, or the connection cut) rejects a
 * promise of its runner that nobody handles, and Node ends the process for it: a database outage
 * at a minute's turn would end every service. graphile-worker 0.17 retries the same way
 * (graphile/worker#544). Once `stopped` aborts (the run is stopping), a statement still waiting is
 * answered with no rows and nothing done, so the cron ends at once and its run can stop.
 *
 * @example
 * import { run } from "graphile-worker"
 * declare const pool: import("pg").Pool
 * const stopping = new AbortController()
 * const runner = await run({ pgPool: patientCronPool(pool, stopping.signal, console.error), taskList: {} })
 * runner.events.on("stop", () => stopping.abort())
 */
export const patientCronPool = (pool: pg.Pool, stopped: AbortSignal, onFailure: (error: unknown) => void): pg.Pool => {
  const query = async (...args: Parameters<pg.Pool["query"]>) => {
    for (let wait = firstRetryMs; ; wait = Math.min(wait * 2, longestRetryMs)) {
      if (stopped.aborted) return { rows: [], rowCount: 0, command: "", oid: 0, fields: [] }
      try {
        return await (pool.query as (...a: typeof args) => Promise<pg.QueryResult>)(...args)
      } catch (error) {
        onFailure(error)
        await sleep(wait, undefined, { signal: stopped }).catch(() => undefined)
      }
    }
  }
  return new Proxy(pool, {
    get: (target, name) => {
      if (name === "query") return query
      const value = Reflect.get(target, name, target) as unknown
      return typeof value === "function" ? value.bind(target) : value
    },
  })
}
