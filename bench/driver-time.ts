/**
 * The time a side spends inside better-sqlite3, told apart from the JavaScript around it: SQLite
 * runs each statement in the calling thread, within the call, so the time inside `run`, `get`,
 * `all` and `Database#exec` is the driver's and the database's, and the rest of a side's time is
 * the code above them. `iterate` is left out: its rows come after the call returns.
 */
import Database from "better-sqlite3"

/** better-sqlite3's `Statement.prototype`, which holds `run`, `get`, `all` and `iterate`: the package exports no name for it. */
export const statementPrototype = (() => {
  const db = new Database(":memory:")
  const prototype = Object.getPrototypeOf(db.prepare("select 1")) as Record<string, unknown>
  db.close()
  return prototype
})()

const timed: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
  ...["run", "get", "all"].map((method) => [statementPrototype, method] as const),
  [Database.prototype as unknown as Record<string, unknown>, "exec"],
]

/** Microseconds inside the driver, by side, while installed. */
export interface DriverClock {
  /** Runs `work` with its driver time counted as `side`'s. */
  readonly during: <A>(side: string, work: () => Promise<A>) => Promise<A>
  /** The driver time counted as `side`'s so far, in µs. */
  readonly microsOf: (side: string) => number
  /** Puts the driver's methods back. */
  readonly uninstall: () => void
}

/**
 * Wraps the driver's methods with a clock for as long as it is installed. Every side run meanwhile
 * pays for the wrapping alike (two `hrtime` reads a statement, about a tenth of a microsecond),
 * whether or not it is counted.
 *
 * @example
 * const clock = sqliteDriverClock()
 * await clock.during("engine", () => pay(1))
 * clock.microsOf("engine") // µs inside better-sqlite3 during that pair
 * clock.uninstall()
 */
export const sqliteDriverClock = (): DriverClock => {
  const micros = new Map<string, bigint>()
  let side: string | undefined
  const originals = timed.map(([owner, method]) => owner[method] as (...args: Array<unknown>) => unknown)
  timed.forEach(([owner, method], i) => {
    const original = originals[i]!
    owner[method] = function (this: unknown, ...args: Array<unknown>) {
      const counted = side
      const started = process.hrtime.bigint()
      try {
        return original.apply(this, args)
      } finally {
        if (counted !== undefined)
          micros.set(counted, (micros.get(counted) ?? 0n) + (process.hrtime.bigint() - started))
      }
    }
  })
  return {
    during: async (name, work) => {
      side = name
      try {
        return await work()
      } finally {
        side = undefined
      }
    },
    microsOf: (name) => Number(micros.get(name) ?? 0n) / 1000,
    uninstall: () =>
      timed.forEach(([owner, method], i) => {
        owner[method] = originals[i]
      }),
  }
}
