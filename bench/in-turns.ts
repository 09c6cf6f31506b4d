/**
 * Measures sides of a comparison in turns: each round runs a short slice of every side, the
 * order rotated each round (swapped, for two sides), so that load from elsewhere on this shared
 * machine and the garbage one side leaves fall on every side alike rather than on whichever ran
 * during the busy stretch.
 */
import { loadavg } from "node:os"
import { performance } from "node:perf_hooks"

/** One side's slice: runs it and says how many operations it made (its wall and CPU time are taken around it). */
export type Slice = (round: number) => Promise<number>

/** A side whose slice needs work first that is not to be timed (writing what the slice then sends). */
export interface PreparedSlice {
  readonly prepare: (round: number) => Promise<unknown>
  readonly run: Slice
}

/** How fast a side went: operations a second of wall time, and CPU µs an operation (all of this process's threads). */
export interface Speed {
  readonly perSecond: number
  readonly cpuMicros: number
}

interface Tally {
  operations: number
  ms: number
  cpuMicros: number
}

/** Every side's speed over all its slices, and each round's speeds, for the spread of a ratio. */
export interface Turns<K extends string> {
  readonly totals: Record<K, Speed>
  readonly rounds: ReadonlyArray<Record<K, Speed>>
}

const speedOf = ({ operations, ms, cpuMicros }: Tally): Speed => ({
  perSecond: operations / (ms / 1000),
  cpuMicros: cpuMicros / operations,
})

/**
 * Runs `rounds` rounds of one slice of each side, in an order rotated each round.
 *
 * @example
 * const turns = await inTurns(20, { engine: (round) => pay(100, round), limit: (round) => write(100, round) })
 * ratio(turns, "engine", "limit") // { total: 0.31, min: 0.27, max: 0.36 }
 */
export const inTurns = async <K extends string>(
  rounds: number,
  sides: Record<K, Slice | PreparedSlice>,
): Promise<Turns<K>> => {
  const names = Object.keys(sides) as Array<K>
  const totals = Object.fromEntries(names.map((name) => [name, { operations: 0, ms: 0, cpuMicros: 0 }])) as Record<
    K,
    Tally
  >
  const perRound: Array<Record<K, Speed>> = []
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]!)
    const speeds = {} as Record<K, Speed>
    for (const name of order) {
      const side: Slice | PreparedSlice = sides[name]
      const run = "run" in side ? side.run : side
      if ("prepare" in side) await side.prepare(round)
      const cpu = process.cpuUsage()
      const started = performance.now()
      const operations = await run(round)
      const ms = performance.now() - started
      const used = process.cpuUsage(cpu)
      const slice = { operations, ms, cpuMicros: used.user + used.system }
      speeds[name] = speedOf(slice)
      for (const key of ["operations", "ms", "cpuMicros"] as const) totals[name][key] += slice[key]
    }
    perRound.push(speeds)
  }
  return {
    totals: Object.fromEntries(names.map((name) => [name, speedOf(totals[name])])) as Record<K, Speed>,
    rounds: perRound,
  }
}

/** A slice of `count` operations one after another; operation numbers run on from round to round. */
export const repeat =
  (count: number, once: (i: number) => Promise<unknown> | unknown): Slice =>
  async (round) => {
    for (let i = 0; i < count; i++) await once(round * count + i)
    return count
  }

/** A ratio of two sides, over the whole run and the least and most of it in one round. */
export interface Ratio {
  readonly total: number
  readonly min: number
  readonly max: number
}

/**
 * How fast `part` went against `whole`. The run's figure divides the two sides' totals over the
 * same slices, not the median of the rounds' ratios: each side's figure in the tables is then its
 * own total, so the ratio is the one a reader computes from the columns, and a slice slowed by a
 * pause weighs by its length as it did in the run. The rounds give the spread.
 */
export const ratio = <K extends string>(turns: Turns<K>, part: K, whole: K, by: "wall" | "cpu" = "wall"): Ratio => {
  const of = (speeds: Record<K, Speed>) =>
    by === "wall" ? speeds[part].perSecond / speeds[whole].perSecond : speeds[whole].cpuMicros / speeds[part].cpuMicros
  const each = turns.rounds.map(of)
  return { total: of(turns.totals), min: Math.min(...each), max: Math.max(...each) }
}

/**
 * The most that `ratio(turns, part, whole)` can be when `part` does what `whole` does and also
 * what `extra` does: `whole`'s cost over the two costs together, a second as the time of one
 * operation or by CPU, for the totals and for each round. Pairs over HTTP, say, do the pair of
 * the engine in-process and the HTTP of a bare route: however thin the app, their ratio is at
 * most this.
 */
export const ceiling = <K extends string>(turns: Turns<K>, whole: K, extra: K, by: "wall" | "cpu" = "wall"): Ratio => {
  const cost = (speed: Speed) => (by === "wall" ? 1 / speed.perSecond : speed.cpuMicros)
  const of = (speeds: Record<K, Speed>) => cost(speeds[whole]) / (cost(speeds[whole]) + cost(speeds[extra]))
  const each = turns.rounds.map(of)
  return { total: of(turns.totals), min: Math.min(...each), max: Math.max(...each) }
}

/** A ratio as a table shows it: the run's figure, then the range over its rounds. */
export const formatRatio = ({ total, min, max }: Ratio): string =>
  `${total.toFixed(2)} (${min.toFixed(2)}–${max.toFixed(2)})`

/** The 1-minute load average now. */
export const loadNow = (): number => loadavg()[0] ?? 0

/** The load average at a bench's start and end, as printed and written with its figures. */
export const loadLine = (start: number, end: number): string =>
  `Load average (1 min): ${start.toFixed(2)} when the bench began, ${end.toFixed(2)} when it ended.`
