/**
 * How fast the engine creates quotes and payments, against the limit of the database: the same
 * rows written straight through the driver, in the transactions the API commits. In the same run,
 * what the HTTP binding costs (`http-path.ts`): a GET of one company against a bare Koa route, and
 * quote + payment pairs over a socket against the same pairs in-process.
 *
 *   npm run bench                          # SQLite file; Postgres too when DATABASE_URL is set
 *   BENCH_PAYMENTS=5000 npm run bench      # more payments per run
 *   BENCH_HTTP_GETS=10000 BENCH_HTTP_PAIRS=3000 npm run bench   # longer HTTP runs (each still stops at 5 s)
 *
 * Results go to docs/benchmarks.md with the machine and the date.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg, totalmem, type } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { type KyselyStorage, openSqliteStorage } from "@payments-engine/adapters"
import { graphileWorkerSchema, openPostgresStorage } from "@payments-engine/adapters/postgres"
import { payInProcess, setUpPayer } from "@payments-engine/adapters/testing"
import Database from "better-sqlite3"
import pg from "pg"
import { benchEngine } from "./bench-engine.ts"
import { type HttpBudget, type HttpMeasurement, httpWarmUp, measureHttpPath } from "./http-path.ts"

const payments = Number(process.env.BENCH_PAYMENTS ?? 2000)
/** Each figure is the best of this many runs: the machine's noise only ever slows a run down. */
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
/** Payments made before the clock starts, so that the figures are of code the JIT has compiled. */
const warmUpPayments = 200
/** What the limit writes per payment: the engine's quote and payment rows again, and a job queued as the engine queues it. */
const copiedTables = ["quotes", "payments", "jobs"] as const
/** The HTTP path's runs: bounded in count and in time, so that a slow database cannot stretch the bench. */
const httpBudget: HttpBudget = {
  rounds,
  gets: Number(process.env.BENCH_HTTP_GETS ?? 3000),
  pairs: Number(process.env.BENCH_HTTP_PAIRS ?? 1000),
  roundLimitMs: 5000,
}

interface Measurement {
  readonly database: string
  readonly engine: number
  readonly limits: Limits
  readonly http: HttpMeasurement
}

/** Creates `payments` quote + payment pairs through the engine's Promise API; payments per second. */
const runEngine = async (storage: KyselyStorage): Promise<number> => {
  const engine = benchEngine(storage)
  const payer = await setUpPayer(engine, "bench")
  const pay = (i: number) => payInProcess(engine, payer, i)
  for (let i = 0; i < warmUpPayments; i++) await pay(-1 - i)
  let best = 0
  for (let round = 0; round < rounds; round++) {
    const started = performance.now()
    for (let i = 0; i < payments; i++) await pay(round * payments + i)
    best = Math.max(best, perSecond(payments, started))
  }
  return best
}

/** The rows the engine wrote for its payments, to write again as the limit. */
const engineRows = async (storage: KyselyStorage) => {
  const rows: Record<string, ReadonlyArray<Record<string, unknown>>> = {}
  for (const table of ["quotes", "payments"] as const) {
    rows[table] = await storage.db.selectFrom(table).selectAll().orderBy("id").execute()
  }
  return rows as Record<"quotes" | "payments", ReadonlyArray<Record<string, unknown>>>
}

/** The same rows with fresh ids and keys, so they can be inserted next to the originals. */
const freshCopies = (rows: Awaited<ReturnType<typeof engineRows>>, round: number) =>
  rows.payments.map((payment, i) => {
    const quote = rows.quotes.find((q) => q.id === payment.quote_id)!
    const suffix = `_x${round}_${i}`
    const paymentId = `${payment.id}${suffix}`
    const at = payment.created_at
    return {
      quotes: { ...quote, id: `${quote.id}${suffix}` },
      payments: {
        ...payment,
        id: paymentId,
        quote_id: `${quote.id}${suffix}`,
        idempotency_key: `${payment.idempotency_key}${suffix}`,
      },
      // The job the engine queues with the payment: the embedded runner's row on SQLite; on
      // Postgres the same values go to graphile-worker's job table, as the engine writes them.
      jobs: {
        id: `job_${paymentId}`,
        kind: "execute_payment",
        payload: JSON.stringify({ payment_id: paymentId, workspace_id: `ws_${"0".repeat(26)}` }),
        run_at: at,
        attempts: 0,
        state: "queued",
        locked_until: null,
        last_error: null,
        // As the engine queues it: a job queued with its payment needs no key.
        job_key: null,
        max_attempts: 5,
        created_at: at,
        updated_at: at,
      },
    }
  })

/** The copies in {@link rounds} runs of {@link payments} each (the engine made rows enough for all). */
const runsOf = <C>(copies: ReadonlyArray<C>): ReadonlyArray<ReadonlyArray<C>> =>
  Array.from({ length: rounds }, (_, round) => copies.slice(round * payments, (round + 1) * payments))

const perSecond = (count: number, started: number) => count / ((performance.now() - started) / 1000)

/**
 * How the limit groups the rows into transactions: as the engine must (the quote alone, as the
 * API's first call commits it, then the payment with its job), or all three in one, which no
 * pair of API calls can do and which is shown for comparison.
 */
const transactionShapes = {
  "as the API": [["quotes"], ["payments", "jobs"]],
  "one transaction": [["quotes", "payments", "jobs"]],
} as const satisfies Record<string, ReadonlyArray<ReadonlyArray<(typeof copiedTables)[number]>>>

type Shape = keyof typeof transactionShapes
type Limits = Record<Shape, number>

/** The driver limit on the SQLite file: prepared statements, the engine's pragmas (WAL, foreign keys). */
const sqliteLimit = (filename: string, rows: Awaited<ReturnType<typeof engineRows>>): Limits => {
  const db = new Database(filename)
  db.pragma("journal_mode = WAL")
  db.pragma("synchronous = NORMAL")
  db.pragma("foreign_keys = ON")
  const limits = {} as Limits
  for (const [index, shape] of (Object.keys(transactionShapes) as Shape[]).entries()) {
    const copies = freshCopies(rows, index + 1)
    const statements = Object.fromEntries(
      copiedTables.map((table) => {
        const columns = Object.keys(copies[0]![table])
        return [
          table,
          db.prepare(`insert into ${table} (${columns.join(",")}) values (${columns.map((c) => `@${c}`).join(",")})`),
        ]
      }),
    )
    const transactions = transactionShapes[shape].map((tables) =>
      db.transaction((copy: (typeof copies)[number]) => {
        for (const table of tables) statements[table]!.run(copy[table])
      }),
    )
    let best = 0
    for (const run of runsOf(copies)) {
      const started = performance.now()
      for (const copy of run) for (const transaction of transactions) transaction(copy)
      best = Math.max(best, perSecond(run.length, started))
    }
    limits[shape] = best
  }
  db.close()
  return limits
}

/** The driver limit on Postgres: one connection, named (prepared) statements. */
const postgresLimit = async (
  connectionString: string,
  schema: string,
  rows: Awaited<ReturnType<typeof engineRows>>,
): Promise<Limits> => {
  const client = new pg.Client({ connectionString })
  await client.connect()
  await client.query(`set search_path to "${schema}"`)
  const limits = {} as Limits
  for (const [index, shape] of (Object.keys(transactionShapes) as Shape[]).entries()) {
    const copies = freshCopies(rows, index + 1)
    const inserts = Object.fromEntries(
      copiedTables.map((table) => {
        if (table === "jobs") {
          // The statement the engine queues a job with (graphile-job-runner.ts): the job row and its NOTIFY.
          const worker = graphileWorkerSchema(schema)
          const text = `with task as (select id from ${worker}._private_tasks where identifier = $1),
            added as (insert into ${worker}._private_jobs (task_id, payload, run_at, max_attempts, key)
              select task.id, $2::json, now(), $3, $4 from task on conflict (key) do nothing returning 1)
            select exists (select from task) as known,
              (select count(pg_notify('jobs:insert', '{"r":' || random()::text || ',"count":1}')) from added) as notified`
          return [table, { name: "bench_queue_job", text, columns: ["kind", "payload", "max_attempts", "job_key"] }]
        }
        const columns = Object.keys(copies[0]![table])
        const text = `insert into ${table} (${columns.join(",")}) values (${columns.map((_, i) => `$${i + 1}`).join(",")})`
        return [table, { name: `bench_${table}`, text, columns }]
      }),
    )
    let best = 0
    for (const run of runsOf(copies)) {
      const started = performance.now()
      for (const copy of run) {
        for (const tables of transactionShapes[shape]) {
          await client.query("begin")
          for (const table of tables) {
            const insert = inserts[table]!
            const values = insert.columns.map((c) => (copy[table] as Record<string, unknown>)[c])
            await client.query({ name: insert.name, text: insert.text, values })
          }
          await client.query("commit")
        }
      }
      best = Math.max(best, perSecond(run.length, started))
    }
    limits[shape] = best
  }
  await client.end()
  return limits
}

const measureSqlite = async (): Promise<Measurement> => {
  const folder = mkdtempSync(join(process.env.TMPDIR ?? "/tmp", "pe-bench-"))
  try {
    const filename = join(folder, "bench.sqlite")
    const storage = await openSqliteStorage({ filename })
    const engine = await runEngine(storage)
    const rows = await engineRows(storage)
    await storage.close()
    const limits = sqliteLimit(filename, rows)
    const httpStorage = await openSqliteStorage({ filename: join(folder, "http.sqlite") })
    try {
      const http = await measureHttpPath(httpStorage, httpBudget, { withGet: true })
      return { database: "SQLite file (better-sqlite3, WAL)", engine, limits, http }
    } finally {
      await httpStorage.close()
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/** A fresh schema for `use`, dropped afterwards. */
const inPostgresSchema = async <A>(
  connectionString: string,
  schema: string,
  use: (storage: KyselyStorage) => Promise<A>,
): Promise<A> => {
  const storage = await openPostgresStorage({ connectionString, schema })
  try {
    return await use(storage)
  } finally {
    for (const each of [schema, graphileWorkerSchema(schema)])
      await storage.db.schema.dropSchema(each).ifExists().cascade().execute()
    await storage.close()
  }
}

const measurePostgres = async (connectionString: string): Promise<Measurement> => {
  const schema = `pe_bench_${process.pid}`
  const [engine, limits] = await inPostgresSchema(connectionString, schema, async (storage) => {
    const engine = await runEngine(storage)
    return [engine, await postgresLimit(connectionString, schema, await engineRows(storage))] as const
  })
  // The GET is measured once, on SQLite: reading one company is not where the databases differ.
  const http = await inPostgresSchema(connectionString, `pe_bench_http_${process.pid}`, (storage) =>
    measureHttpPath(storage, httpBudget, { withGet: false }),
  )
  return { database: "Postgres (pg, same machine)", engine, limits, http }
}

/**
 * Which code ran: `npm run bench` measures the build, as installed. The sources run through tsx,
 * whose esbuild keeps function names by defining `name` on every function it creates, which
 * slows the engine by about a tenth (docs/benchmarks.md, "The build, not the sources").
 */
const codeMeasured = import.meta.resolve("@payments-engine/core").includes("/src/")
  ? "the sources through tsx (not comparable with the build; `npm run bench` measures the build)"
  : "the packages' build (`dist/`, as installed), which `npm run bench` makes first"

const ratio = (part: number, whole: number) => (part / whole).toFixed(2)

const getBytes = (results: ReadonlyArray<Measurement>) => results.find((r) => r.http.get)?.http.get?.bytes ?? 0

const report = (results: ReadonlyArray<Measurement>) => {
  const cpu = cpus()[0]?.model ?? "unknown CPU"
  const lines = [
    "# Benchmarks",
    "",
    "`npm run bench` (`bench/quote-payment.bench.ts`): quote + payment creation through the engine's Promise API,",
    `one after another in one process (after ${warmUpPayments} untimed ones), against the limit: the same rows`,
    "(quote, payment, its job) written straight through the database driver with prepared statements.",
    "The limit that counts commits them as the engine must, the quote in one transaction (the API's first",
    "call) and the payment with its job in a second; the same rows in a single transaction, which no pair of",
    "API calls can do, are shown for comparison. Payment execution (the job) is not part of the measurement.",
    "",
    `Machine: ${type()} ${process.arch}, ${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}.`,
    `Date: ${new Date().toISOString().slice(0, 10)}. Payments per run: ${payments}; each figure is the best of ${rounds} runs.`,
    `Load average when the run began: ${startLoad.toFixed(1)} (other work on the machine slows every figure; the ratios suffer less).`,
    `Code measured: ${codeMeasured}.`,
    "",
    "| Database | Engine (payments/s) | Limit, two transactions | Engine / limit | Limit, one transaction | Engine / that |",
    "|---|---|---|---|---|---|",
    ...results.map((r) => {
      const [api, single] = [r.limits["as the API"], r.limits["one transaction"]]
      return `| ${r.database} | ${Math.round(r.engine)} | ${Math.round(api)} | ${(r.engine / api).toFixed(2)} | ${Math.round(single)} | ${(r.engine / single).toFixed(2)} |`
    }),
    "",
    "Goal: at least 1,000 payments/s on SQLite in one process, and engine / limit (two transactions) of at least 0.25.",
    "",
    "## The HTTP path",
    "",
    "Measured in the same run, over a real socket on 127.0.0.1: the Koa app of `@payments-engine/http-koa` as the",
    "service builds it (`createApp` with `apiRoutes`: request id, access log at `info` to /dev/null, error rendering,",
    "bearer authentication, the route), with a bearer token from `POST /api/v1/sessions`, and no job runner. The client",
    "is in the same process and sends one request at a time on one keep-alive connection (a node:http `Agent`), so",
    "its own cost is in every figure, on both sides of each ratio; the two sides take turns within each run, so that",
    `load from elsewhere on the machine slows both. Each figure is the best of ${rounds} runs, after ${httpWarmUp.gets} untimed GETs or ${httpWarmUp.pairs} pairs on each side.`,
    "",
    `GET of one company (\`GET /api/v1/companies/{id}\`, SQLite, ${getBytes(results)} bytes of JSON), against a bare`,
    "Koa route (Koa and `@koa/router`, nothing else) answering the same bytes, and the same read through the engine's",
    "Promise API without HTTP. CPU time is this process's, all threads, client included; on a busy machine it moves",
    `far less than requests/s. Requests per run: up to ${httpBudget.gets}, or ${httpBudget.roundLimitMs / 1000} s.`,
    "",
    "| Database | Side | Requests/s | CPU µs a request |",
    "|---|---|---|---|",
    ...results.flatMap(({ database, http: { get } }) =>
      get === undefined
        ? []
        : [
            `| ${database} | App | ${Math.round(get.app.perSecond)} | ${Math.round(get.app.cpuMicros)} |`,
            `| | Bare Koa route | ${Math.round(get.bare.perSecond)} | ${Math.round(get.bare.cpuMicros)} |`,
            `| | App / bare, as speeds | ${ratio(get.app.perSecond, get.bare.perSecond)} | ${ratio(get.bare.cpuMicros, get.app.cpuMicros)} |`,
            `| | Engine in-process | ${Math.round(get.inProcess.perSecond)} | ${Math.round(get.inProcess.cpuMicros)} |`,
          ],
    ),
    "",
    "Quote + payment pairs over HTTP (`POST .../quotes`, then `POST .../payments` with the quote's id), against the",
    "same pairs made in-process on the same engine and storage (a fresh one, not the one of the table above).",
    "The CPU time leaves out the Postgres server's.",
    `Pairs per run: up to ${httpBudget.pairs}, or ${httpBudget.roundLimitMs / 1000} s.`,
    "",
    "| Database | In-process (pairs/s) | Over HTTP (pairs/s) | HTTP / in-process | CPU µs a pair, in-process | Over HTTP | In-process / HTTP |",
    "|---|---|---|---|---|---|---|",
    ...results.map(({ database, http: { pairs } }) => {
      const [local, http] = [pairs.inProcess, pairs.http]
      return `| ${database} | ${Math.round(local.perSecond)} | ${Math.round(http.perSecond)} | ${ratio(http.perSecond, local.perSecond)} | ${Math.round(local.cpuMicros)} | ${Math.round(http.cpuMicros)} | ${ratio(local.cpuMicros, http.cpuMicros)} |`
    }),
    "",
    // A blank line before the analysis that follows, or the last table runs into its heading.
    "",
  ]
  return lines.join("\n")
}

// Read before the bench adds its own load: it tells a reader whether the machine was quiet.
const startLoad = loadavg()[0] ?? 0
const results = [await measureSqlite()]
if (process.env.DATABASE_URL?.startsWith("postgres")) results.push(await measurePostgres(process.env.DATABASE_URL))
const text = report(results)
const resultsFile = new URL("../docs/benchmarks.md", import.meta.url)
// The analysis below the figures is written by people; a new run replaces only the figures.
const previous = existsSync(resultsFile) ? readFileSync(resultsFile, "utf8") : ""
const analysis = previous.indexOf("\n## Where the time goes")
writeFileSync(resultsFile, analysis === -1 ? text : `${text}${previous.slice(analysis + 1)}`)
console.log(text)
