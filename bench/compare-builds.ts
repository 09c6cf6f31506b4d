/**
 * Two builds of the packages, measured in turns in one process: a GET of one company and a
 * quote + payment pair through the engine's Promise API, on a SQLite file each. Each round runs
 * both sides, the order swapped every round, so load from elsewhere and the garbage of one side
 * fall on both; each figure is the best round. For a change that must not slow the engine, where
 * `npm run bench` run twice moves by more than the change.
 *
 *   node --import tsx bench/compare-builds.ts <checkout before> <checkout after>
 *
 * Each checkout must have its packages built (`npm run build`) and its own node_modules.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

interface Side {
  readonly get: () => Promise<unknown>
  readonly pair: () => Promise<unknown>
  readonly close: () => Promise<void>
}

const sideOf = async (checkout: string, folder: string): Promise<Side> => {
  const core = await import(join(checkout, "packages/core/dist/index.js"))
  const adapters = await import(join(checkout, "packages/adapters/dist/index.js"))
  const testing = await import(join(checkout, "packages/adapters/dist/testing/index.js"))
  const storage = await adapters.openSqliteStorage({ filename: join(folder, "engine.sqlite") })
  const engine = core.createEngine({
    storage,
    clock: adapters.systemClock,
    ids: adapters.randomIds(),
    hasher: adapters.scryptHasher(),
    serverSecret: { read: async () => "bench-server-secret-0123456789abcdefgh" },
    paymentProvider: adapters.createSandboxPaymentProvider({ latencyMs: 0 }),
    bankLinker: adapters.createSandboxBankLinker(),
  })
  const payer = await testing.setUpPayer(engine, "bench")
  let paid = 0
  return {
    get: () => engine.companies.get(payer.actor, payer.companyId),
    pair: () => testing.payInProcess(engine, payer, paid++, "bench"),
    close: () => engine.close(),
  }
}

/** Microseconds a call of `work`, over `calls` calls one after another. */
const microsecondsPerCall = async (work: () => Promise<unknown>, calls: number): Promise<number> => {
  const started = process.hrtime.bigint()
  for (let i = 0; i < calls; i++) await work()
  return Number(process.hrtime.bigint() - started) / calls / 1000
}

const [before, after] = process.argv.slice(2).map((path) => resolve(path))
if (before === undefined || after === undefined) {
  console.error("usage: node --import tsx bench/compare-builds.ts <checkout before> <checkout after>")
  process.exit(2)
}
const folder = mkdtempSync(join(tmpdir(), "compare-builds-"))
try {
  const sides = {
    before: await sideOf(before, mkdtempSync(join(folder, "before-"))),
    after: await sideOf(after, mkdtempSync(join(folder, "after-"))),
  }
  const measures = [
    { name: "GET of one company", pick: (side: Side) => side.get, calls: 3000, rounds: 10 },
    { name: "quote + payment", pick: (side: Side) => side.pair, calls: 500, rounds: 8 },
  ]
  for (const { name, pick, calls, rounds } of measures) {
    for (const side of Object.values(sides)) await microsecondsPerCall(pick(side), calls)
    const best = { before: Number.POSITIVE_INFINITY, after: Number.POSITIVE_INFINITY }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (["before", "after"] as const) : (["after", "before"] as const)
      for (const which of order)
        best[which] = Math.min(best[which], await microsecondsPerCall(pick(sides[which]), calls))
    }
    console.log(
      `${name}: ${best.before.toFixed(1)} µs before, ${best.after.toFixed(1)} µs after, after / before ${(best.after / best.before).toFixed(2)}`,
    )
  }
  await Promise.all(Object.values(sides).map((side) => side.close()))
} finally {
  rmSync(folder, { recursive: true, force: true })
}
