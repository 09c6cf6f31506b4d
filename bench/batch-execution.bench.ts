/**
 * How fast batches run their payments, part of `npm run bench`:
 *
 * (a) a batch of 500 payments at the default limits (5 in flight, 20 started a second) with a
 *     provider that takes 50 ms a call: the time to its terminal status against the bound its rate
 *     sets (500 / 20 a second = 25 s);
 * (b) payment execution with a provider that answers at once and the rate lifted: payments a
 *     second, against the job engine's own throughput for as many empty jobs on the same database
 *     and with the same concurrency (the limit); on SQLite, and on Postgres with one process and
 *     with two (a second process runs the same runners). The two sides take turns: each round
 *     processes one batch of `BENCH_BATCH_SLICE` payments to its end, and runs as many empty jobs.
 *
 * Results replace the "## Batches" section of docs/benchmarks.md, with the load average.
 *
 *   npm run build && node --import tsx bench/batch-execution.bench.ts   # DATABASE_URL=postgres://... for Postgres too
 *   BENCH_BATCH_ROUNDS=20 BENCH_BATCH_SLICE=50 node --import tsx bench/batch-execution.bench.ts
 */

import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { createInterface } from "node:readline"
import { openSqliteStorage } from "@payments-engine/adapters"
import type { KyselyStorage } from "@payments-engine/adapters/kysely"
import { kyselyStorageOf } from "@payments-engine/adapters/kysely"
import { graphileWorkerSchema, openPostgresStorage } from "@payments-engine/adapters/postgres"
import { quoteRequest, setUpPayer } from "@payments-engine/adapters/testing"
import { defaultBatchExecution, type Engine, JobId, maxBatchPayments, type PaymentBatchId } from "@payments-engine/core"
import pg from "pg"
import { benchEngine, noopKind, noopRunner } from "./bench-engine.ts"
import { writeResultsSection } from "./bench-results.ts"
import { formatRatio, inTurns, loadLine, loadNow, ratio, type Turns } from "./in-turns.ts"

const rateBoundSeconds = maxBatchPayments / defaultBatchExecution.perSecond
/** Rounds of (b), each a batch of {@link slice} payments and as many empty jobs. */
const rounds = Number(process.env.BENCH_BATCH_ROUNDS ?? 10)
const slice = Number(process.env.BENCH_BATCH_SLICE ?? 100)
/** How often a side looks whether its slice has ended: short beside a slice, and the same for both sides. */
const pollMs = 5

interface Location {
  readonly name: string
  /** The URL a second process opens; undefined where a second process cannot share the database. */
  readonly url: string | undefined
  readonly open: () => Promise<KyselyStorage>
  readonly drop: (storage: KyselyStorage) => Promise<void>
  /** Empty jobs not yet run. */
  readonly noopLeft: (storage: KyselyStorage) => Promise<number>
}

/** A batch of `size` payments, each from its own quote, built and not yet processed. */
const batchOf = async (engine: Engine, label: string, size: number) => {
  const payer = await setUpPayer(engine, label)
  const { batch } = await engine.paymentBatches.create(payer.actor, payer.companyId, {})
  for (let i = 0; i < size; i++) {
    const quote = await engine.quotes.create(payer.actor, payer.companyId, quoteRequest(payer, i))
    await engine.payments.create(payer.actor, payer.companyId, {
      payment_instruction: {
        payment_quote_id: quote.id,
        reason: "goods_purchased",
        idempotency_key: `${label}-${i}`,
        payment_batch_id: batch.id,
      },
    })
  }
  return { payer, batchId: batch.id as PaymentBatchId }
}

const ended = async (storage: KyselyStorage, ids: ReadonlyArray<PaymentBatchId>) => {
  const rows = await storage.db
    .selectFrom("payment_batches")
    .select("status")
    .where("id", "in", [...ids])
    .execute()
  return rows.every((row) => row.status !== "processing" && row.status !== "building")
}

const until = async (done: () => Promise<boolean>) => {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, pollMs))
}

/** A second process running the engine's jobs and empty jobs on the database at `url`, once it says it is ready. */
const secondProcess = async (url: string) => {
  // The parent's own flags, so that the second process runs the same code (the build, under npm run bench).
  const child = spawn(process.execPath, [...process.execArgv, "bench/batch-worker.ts"], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: ["ignore", "pipe", "inherit"],
  })
  const lines = createInterface({ input: child.stdout! })
  await new Promise<void>((resolve, reject) => {
    lines.on("line", (line) => line === "ready" && resolve())
    child.once("exit", (code) => reject(new Error(`bench worker exited with ${code}`)))
  })
  return async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve))
    child.kill("SIGTERM")
    await exited
  }
}

/** (a): seconds from process_batch to the terminal status of a 500-payment batch at the default limits. */
const rateBound = async (location: Location): Promise<number> => {
  const storage = await location.open()
  const engine = benchEngine(storage, { latencyMs: 50 })
  const { payer, batchId } = await batchOf(engine, "bench-rate", maxBatchPayments)
  engine.jobs.start()
  const started = performance.now()
  await engine.paymentBatches.process(payer.actor, payer.companyId, batchId)
  await until(() => ended(storage, [batchId]))
  const seconds = (performance.now() - started) / 1000
  await engine.jobs.stop()
  await location.drop(storage)
  return seconds
}

/**
 * (b): payments a second, batch by batch, against empty jobs a second, in turns, with `processes`
 * processes each running both runners (the one idle while the other side's slice runs).
 */
const throughput = async (location: Location, processes: 1 | 2): Promise<Turns<"payments" | "jobs">> => {
  const second = processes === 2 ? location.url : undefined
  const storage = await location.open()
  const engine = benchEngine(storage, { batchExecution: { perSecond: Number.POSITIVE_INFINITY } })
  // One batch more than the rounds: the first warms both sides up.
  const batches: Array<Awaited<ReturnType<typeof batchOf>>> = []
  for (let i = 0; i <= rounds; i++) batches.push(await batchOf(engine, `bench-throughput-${i}`, slice))
  const stopOther = second === undefined ? undefined : await secondProcess(second)
  const runner = noopRunner(storage)
  engine.jobs.start()
  runner.start()
  const payments = async () => {
    const { payer, batchId } = batches.shift()!
    await engine.paymentBatches.process(payer.actor, payer.companyId, batchId)
    await until(() => ended(storage, [batchId]))
    return slice
  }
  let queued = 0
  // The limit: as many jobs that do nothing, queued in one transaction, run by the same job engine.
  const emptyJobs = async () => {
    const now = new Date().toISOString()
    await storage.transaction(async (tx) => {
      for (let i = 0; i < slice; i++) {
        await tx.jobs.enqueue({
          id: JobId.make(`job_noop_${queued++}`),
          kind: noopKind,
          payload: "{}",
          run_at: now,
          key: null,
          max_attempts: 1,
          created_at: now,
          workspace_id: null,
        })
      }
    })
    await until(async () => (await location.noopLeft(storage)) === 0)
    return slice
  }
  await payments()
  await emptyJobs()
  const turns = await inTurns(rounds, { payments, jobs: emptyJobs })
  await stopOther?.()
  await engine.jobs.stop()
  await runner.stop()
  await location.drop(storage)
  return turns
}

const sqliteLocation = (): Location => {
  const folder = mkdtempSync(join(tmpdir(), "pe-bench-batches-"))
  let n = 0
  return {
    name: "SQLite file",
    url: undefined,
    open: async () => kyselyStorageOf(await openSqliteStorage({ filename: join(folder, `batches-${n++}.sqlite`) })),
    drop: (storage) => storage.close(),
    noopLeft: async (storage) => {
      const row = await storage.db
        .selectFrom("jobs")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("kind", "=", noopKind)
        .executeTakeFirst()
      return Number(row?.n ?? 0)
    },
  }
}

/** One connection for polling graphile-worker's table, opened once: a poll must cost little beside what it watches. */
let pollingPool: pg.Pool | undefined

/** graphile-worker's jobs of kind `bench_noop` in the schema beside `schema`. */
const graphileNoopLeft = async (connectionString: string, schema: string) => {
  const worker = graphileWorkerSchema(schema)
  pollingPool ??= new pg.Pool({ connectionString, max: 1 })
  const { rows } = await pollingPool.query(
    `select count(*) as n from "${worker}"._private_jobs j join "${worker}"._private_tasks t on t.id = j.task_id
     where t.identifier = '${noopKind}'`,
  )
  return Number(rows[0]?.n ?? 0)
}

const postgresLocation = (connectionString: string, schema: string): Location => ({
  name: "Postgres",
  noopLeft: () => graphileNoopLeft(connectionString, schema),
  url: `${connectionString}${connectionString.includes("?") ? "&" : "?"}schema=${schema}`,
  open: () => openPostgresStorage({ connectionString, schema }),
  drop: async (storage) => {
    for (const each of [schema, graphileWorkerSchema(schema)]) {
      await storage.db.schema.dropSchema(each).ifExists().cascade().execute()
    }
    await storage.close()
  },
})

const startLoad = loadNow()
console.log(`Load average (1 min) at the start: ${startLoad.toFixed(2)}`)
const sqlite = sqliteLocation()
const rate = [{ name: sqlite.name, seconds: await rateBound(sqlite) }]
const flows = [{ name: `${sqlite.name}, one process`, turns: await throughput(sqlite, 1) }]
const postgresUrl = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : undefined
if (postgresUrl !== undefined) {
  rate.push({
    name: "Postgres",
    seconds: await rateBound(postgresLocation(postgresUrl, `pe_bench_rate_${process.pid}`)),
  })
  for (const processes of [1, 2] as const) {
    const location = postgresLocation(postgresUrl, `pe_bench_flow${processes}_${process.pid}`)
    flows.push({
      name: `Postgres, ${processes === 1 ? "one process" : "two processes"}`,
      turns: await throughput(location, processes),
    })
  }
}
const endLoad = loadNow()
console.log(`Load average (1 min) at the end: ${endLoad.toFixed(2)}`)
const rows = [
  "## Batches",
  "",
  "`npm run bench` also runs `bench/batch-execution.bench.ts`, on the same machine, right after the figures above.",
  `Measured ${new Date().toISOString().slice(0, 10)}. ${loadLine(startLoad, endLoad)}`,
  "",
  `(a) A batch of ${maxBatchPayments} payments at the default limits (${defaultBatchExecution.concurrency} in flight, ${defaultBatchExecution.perSecond} started a second), with a sandbox`,
  `provider that takes 50 ms a call: seconds from \`process_batch\` to the batch's terminal status, against the ${rateBoundSeconds} s its`,
  "rate sets. Goal: within 5 % of the bound.",
  "",
  "| Database | Seconds | Bound | Seconds / bound |",
  "|---|---|---|---|",
  ...rate.map(
    (r) =>
      `| ${r.name} | ${r.seconds.toFixed(2)} | ${rateBoundSeconds} | ${(r.seconds / rateBoundSeconds).toFixed(3)} |`,
  ),
  "",
  "(b) Payment execution with a provider that answers at once and no batch rate, against the limit: jobs that do",
  `nothing, run by the same job engine with the same concurrency (${defaultBatchExecution.concurrency} per process). The two take turns: ${rounds} rounds,`,
  `each a batch of ${slice} payments from \`process_batch\` to its end, and ${slice} empty jobs queued in one transaction until`,
  `the last has run (both runners run throughout; each side's end is looked for every ${pollMs} ms). Figures are the sides'`,
  "totals; the ratio is that of the totals, with the least and the most it was in one round in brackets; a round",
  "warms both sides first. Goal: at least 0.5 of the limit.",
  "",
  "| Database | Payments/s | Empty jobs/s (limit) | Payments / limit |",
  "|---|---|---|---|",
  ...flows.map(
    ({ name, turns }) =>
      `| ${name} | ${Math.round(turns.totals.payments.perSecond)} | ${Math.round(turns.totals.jobs.perSecond)} | ${formatRatio(ratio(turns, "payments", "jobs"))} |`,
  ),
  "",
]
writeResultsSection("## Batches", rows.join("\n"))
await pollingPool?.end()
