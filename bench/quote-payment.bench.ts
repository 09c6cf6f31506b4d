/**
 * How fast the engine creates quotes and payments, against the limit of the database: the same
 * rows written straight through the driver, in the transactions the API commits, with the time
 * each spends inside the driver on SQLite (`driver-time.ts`). In the same run, what the HTTP
 * binding costs (`http-path.ts`): a GET of one company against a bare Koa route, and quote +
 * payment pairs over a socket against the same pairs in-process and against a bare Koa app's
 * HTTP of a pair, the most the first ratio can be; and the statements (round trips on Postgres)
 * a pair, a GET and the execution of a payment send (`round-trips.ts`).
 *
 * Every comparison runs its sides in turns (`in-turns.ts`): short slices of each, the order
 * rotated each round, so that load from elsewhere on the machine slows all sides alike.
 *
 *   npm run bench                          # SQLite file; Postgres too when DATABASE_URL is set
 *   BENCH_ROUNDS=40 npm run bench          # more rounds (each a slice of every side)
 *   BENCH_SLICE=200 BENCH_GET_SLICE=200 BENCH_HTTP_PAIR_SLICE=100 npm run bench   # longer slices
 *
 * Results go to docs/benchmarks.md with the machine, the date and the load average.
 */

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { cpus, totalmem, type } from "node:os"
import { join } from "node:path"
import { openSqliteStorage } from "@payments-engine/adapters"
import type { KyselyStorage } from "@payments-engine/adapters/kysely"
import { kyselyStorageOf } from "@payments-engine/adapters/kysely"
import { graphileWorkerSchema, openPostgresStorage } from "@payments-engine/adapters/postgres"
import { payInProcess, setUpPayer } from "@payments-engine/adapters/testing"
import Database from "better-sqlite3"
import pg from "pg"
import { benchEngine } from "./bench-engine.ts"
import { sqliteDriverClock } from "./driver-time.ts"
import { type HttpBudget, type HttpMeasurement, httpWarmUp, measureHttpPath } from "./http-path.ts"
import { ceiling, formatRatio, inTurns, loadLine, loadNow, ratio, repeat, type Slice, type Turns } from "./in-turns.ts"
import { countStatements, type ExecutionTrips, executionTrips } from "./round-trips.ts"

/** Rounds of every comparison; each round runs one slice of each side. */
const rounds = Number(process.env.BENCH_ROUNDS ?? 20)
/** Quote + payment pairs a slice, engine and limit alike. */
const slice = Number(process.env.BENCH_SLICE ?? 100)
/** Pairs made before the clock starts on each side, so that the figures are of code the JIT has compiled. */
const warmUpPayments = 200
const httpBudget: HttpBudget = {
  rounds,
  getsPerSlice: Number(process.env.BENCH_GET_SLICE ?? 100),
  pairsPerSlice: Number(process.env.BENCH_HTTP_PAIR_SLICE ?? 50),
}

/**
 * How the limit groups the rows into transactions: as the engine must (the quote alone, as the
 * API's first call commits it, then the payment with its job), or all three in one, which no
 * pair of API calls can do and which is shown for comparison.
 */
const transactionShapes = {
  "as the API": [["quote"], ["payment", "job"]],
  "one transaction": [["quote", "payment", "job"]],
} as const satisfies Record<string, ReadonlyArray<ReadonlyArray<keyof Copy>>>

type Shape = keyof typeof transactionShapes
const shapes = Object.keys(transactionShapes) as Array<Shape>

type Row = Record<string, unknown>

/** What the limit writes for one payment: the engine's quote and payment rows again, and a job queued as the engine queues it. */
interface Copy {
  readonly quote: Row
  readonly payment: Row
  readonly job: Row
}

/** Writes one payment's rows, as a shape groups them. */
interface Limit {
  write(shape: Shape, copy: Copy): Promise<void> | void
  close(): Promise<void> | void
}

/** The statements of the limit's pair as the API commits it: begin, the quote, commit; begin, the payment, its job, commit. */
const limitStatements = 7

/** An engine pair's and a limit pair's time inside the driver, in the turns of the creation (SQLite only), µs a pair. */
interface DriverMicros {
  readonly engine: number
  readonly limit: number
}

interface Measurement {
  readonly database: string
  readonly creation: Turns<"engine" | Shape>
  readonly creationDriver: DriverMicros | undefined
  readonly http: HttpMeasurement
  readonly execution: ExecutionTrips
}

/** The last payment the engine made, with its quote and (on SQLite, where the engine keeps jobs in its own table) its job. */
const templateOf = async (storage: KyselyStorage, withJob: boolean): Promise<Copy> => {
  const payment = await storage.db
    .selectFrom("payments")
    .selectAll()
    .orderBy("created_at", "desc")
    .executeTakeFirstOrThrow()
  const quote = await storage.db
    .selectFrom("quotes")
    .selectAll()
    .where("id", "=", payment.quote_id)
    .executeTakeFirstOrThrow()
  const job = withJob
    ? await storage.db
        .selectFrom("jobs")
        .selectAll()
        .where("payload", "like", `%${payment.id}%`)
        .executeTakeFirstOrThrow()
    : { payload: JSON.stringify({ payment_id: payment.id, workspace_id: `ws_${"0".repeat(26)}` }) }
  return { quote, payment, job }
}

/** The template's rows with fresh ids and keys, so they can be inserted next to the engine's. */
const copyOf = (template: Copy, suffix: string): Copy => {
  const paymentId = `${template.payment.id}${suffix}`
  const quoteId = `${template.quote.id}${suffix}`
  const payload = JSON.parse(String(template.job.payload)) as Record<string, unknown>
  return {
    quote: { ...template.quote, id: quoteId },
    payment: {
      ...template.payment,
      id: paymentId,
      quote_id: quoteId,
      idempotency_key: `${template.payment.idempotency_key}${suffix}`,
    },
    job: { ...template.job, id: `job_${paymentId}`, payload: JSON.stringify({ ...payload, payment_id: paymentId }) },
  }
}

/** The driver limit on the SQLite file: prepared statements, the engine's pragmas (WAL, foreign keys). */
const sqliteLimit = (filename: string, template: Copy): Limit => {
  const db = new Database(filename)
  db.pragma("journal_mode = WAL")
  db.pragma("synchronous = NORMAL")
  db.pragma("foreign_keys = ON")
  const tables = { quote: "quotes", payment: "payments", job: "jobs" } as const
  const inserts = Object.fromEntries(
    (Object.keys(tables) as Array<keyof Copy>).map((row) => {
      const columns = Object.keys(template[row])
      const text = `insert into ${tables[row]} (${columns.join(",")}) values (${columns.map((c) => `@${c}`).join(",")})`
      return [row, db.prepare(text)]
    }),
  ) as Record<keyof Copy, Database.Statement>
  const transactionsOf = (shape: Shape) =>
    transactionShapes[shape].map((rows) =>
      db.transaction((copy: Copy) => {
        for (const row of rows) inserts[row].run(copy[row])
      }),
    )
  const transactions = {
    "as the API": transactionsOf("as the API"),
    "one transaction": transactionsOf("one transaction"),
  }
  return {
    write: (shape, copy) => {
      for (const transaction of transactions[shape]) transaction(copy)
    },
    close: () => {
      db.close()
    },
  }
}

/** The driver limit on Postgres: one connection, named (prepared) statements. */
const postgresLimit = async (connectionString: string, schema: string, template: Copy): Promise<Limit> => {
  const client = new pg.Client({ connectionString })
  await client.connect()
  await client.query(`set search_path to "${schema}"`)
  const worker = graphileWorkerSchema(schema)
  // The statement the engine queues a job with (graphile-job-runner.ts): the job row and its NOTIFY.
  const queueJob = `with task as (select id from ${worker}._private_tasks where identifier = $1),
    added as (insert into ${worker}._private_jobs (task_id, payload, run_at, max_attempts, key)
      select task.id, $2::json, now(), $3, $4 from task on conflict (key) do nothing returning 1)
    select exists (select from task) as known,
      (select count(pg_notify('jobs:insert', '{"r":' || random()::text || ',"count":1}')) from added) as notified`
  const insertOf = (table: string, row: Row) => {
    const columns = Object.keys(row)
    const text = `insert into ${table} (${columns.join(",")}) values (${columns.map((_, i) => `$${i + 1}`).join(",")})`
    return { name: `bench_${table}`, text, values: (copy: Row) => columns.map((c) => copy[c]) }
  }
  const statements = {
    quote: insertOf("quotes", template.quote),
    payment: insertOf("payments", template.payment),
    // As the engine queues it: a job queued with its payment needs no key.
    job: { name: "bench_queue_job", text: queueJob, values: (copy: Row) => ["execute_payment", copy.payload, 5, null] },
  }
  return {
    write: async (shape, copy) => {
      for (const rows of transactionShapes[shape]) {
        await client.query("begin")
        for (const row of rows) {
          const { name, text, values } = statements[row]
          await client.query({ name, text, values: values(copy[row]) })
        }
        await client.query("commit")
      }
    },
    close: () => client.end(),
  }
}

/**
 * Quote + payment creation through the engine's Promise API against the limit, both shapes, in
 * turns on one storage: the limit's rows land in the engine's tables, which grow alike for all.
 */
const measureCreation = async (
  storage: KyselyStorage,
  openLimit: (template: Copy) => Promise<Limit>,
  withJob: boolean,
  timeDriver: boolean,
): Promise<{ readonly turns: Turns<"engine" | Shape>; readonly driver: DriverMicros | undefined }> => {
  const engine = benchEngine(storage)
  const payer = await setUpPayer(engine, "bench")
  const pay = (i: number) => payInProcess(engine, payer, i)
  for (let i = 0; i < warmUpPayments; i++) await pay(-1 - i)
  const template = await templateOf(storage, withJob)
  const limit = await openLimit(template)
  try {
    const write = (shape: Shape) => (i: number) =>
      limit.write(shape, copyOf(template, `_${shapes.indexOf(shape)}_${i}`))
    for (const shape of shapes) for (let i = 0; i < warmUpPayments; i++) await write(shape)(-1 - i)
    // The count of a pair whose statements are known: a counter that missed the driver would count the engine's wrong too.
    const counted = await countStatements(async () => write("as the API")(-1 - warmUpPayments))
    if (counted !== limitStatements)
      throw new Error(`the driver count saw ${counted} statements of the limit's pair, not ${limitStatements}`)
    // Installed for every side alike, so each pays for its clock; only the engine and the limit as the API count.
    const clock = timeDriver ? sqliteDriverClock() : undefined
    const timedAs = (side: string, run: Slice): Slice =>
      clock === undefined ? run : (round) => clock.during(side, () => run(round))
    try {
      const turns = await inTurns(rounds, {
        engine: timedAs("engine", repeat(slice, pay)),
        "as the API": timedAs("limit", repeat(slice, write("as the API"))),
        "one transaction": repeat(slice, write("one transaction")),
      })
      const pairs = rounds * slice
      const driver =
        clock === undefined
          ? undefined
          : { engine: clock.microsOf("engine") / pairs, limit: clock.microsOf("limit") / pairs }
      return { turns, driver }
    } finally {
      clock?.uninstall()
    }
  } finally {
    await limit.close()
  }
}

const measureSqlite = async (): Promise<Measurement> => {
  const folder = mkdtempSync(join(process.env.TMPDIR ?? "/tmp", "pe-bench-"))
  const inFile = async <A>(name: string, use: (storage: KyselyStorage, filename: string) => Promise<A>) => {
    const filename = join(folder, name)
    const storage = kyselyStorageOf(await openSqliteStorage({ filename }))
    try {
      return await use(storage, filename)
    } finally {
      await storage.close()
    }
  }
  try {
    const { turns: creation, driver: creationDriver } = await inFile("bench.sqlite", (storage, filename) =>
      measureCreation(storage, async (template) => sqliteLimit(filename, template), true, true),
    )
    const http = await inFile("http.sqlite", (storage) => measureHttpPath(storage, httpBudget, { withGet: true }))
    const execution = await inFile("execution.sqlite", executionTrips)
    return { database: "SQLite file (better-sqlite3, WAL)", creation, creationDriver, http, execution }
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
  const { turns: creation } = await inPostgresSchema(connectionString, schema, (storage) =>
    measureCreation(storage, (template) => postgresLimit(connectionString, schema, template), false, false),
  )
  // The GET's speed is measured once, on SQLite: reading one company is not where the databases differ.
  const http = await inPostgresSchema(connectionString, `pe_bench_http_${process.pid}`, (storage) =>
    measureHttpPath(storage, httpBudget, { withGet: false }),
  )
  const execution = await inPostgresSchema(connectionString, `pe_bench_trips_${process.pid}`, executionTrips)
  return { database: "Postgres (pg, same machine)", creation, creationDriver: undefined, http, execution }
}

/**
 * Which code ran: `npm run bench` measures the build, as installed. The sources run through tsx,
 * whose esbuild keeps function names by defining `name` on every function it creates, which
 * slows the engine by about a tenth (docs/benchmarks.md, "The build, not the sources").
 */
const codeMeasured = import.meta.resolve("@payments-engine/core").includes("/src/")
  ? "the sources through tsx (not comparable with the build; `npm run bench` measures the build)"
  : "the packages' build (`dist/`, as installed), which `npm run bench` makes first"

/** A count of statements: whole, or to a tenth where a first connection's setup shows in the mean. */
const statements = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1))

const getBytes = (results: ReadonlyArray<Measurement>) => results.find((r) => r.http.get)?.http.get?.bytes ?? 0

const report = (results: ReadonlyArray<Measurement>, endLoad: number) => {
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
    `The sides take turns (\`bench/in-turns.ts\`): ${rounds} rounds, each a slice of ${slice} pairs of every side, the order`,
    "rotated each round, all on one storage; so load from elsewhere on the machine slows every side alike. Each",
    "figure is the side's total over its slices; a ratio is that of the totals, with the least and the most it was",
    "in one round in brackets.",
    "",
    `Machine: ${type()} ${process.arch}, ${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}.`,
    `Date: ${new Date().toISOString().slice(0, 10)}. ${loadLine(startLoad, endLoad)}`,
    `Code measured: ${codeMeasured}.`,
    "",
    "| Database | Engine (payments/s) | Limit, two transactions | Engine / limit | Limit, one transaction | Engine / that |",
    "|---|---|---|---|---|---|",
    ...results.map(({ database, creation }) => {
      const { totals } = creation
      return `| ${database} | ${Math.round(totals.engine.perSecond)} | ${Math.round(totals["as the API"].perSecond)} | ${formatRatio(ratio(creation, "engine", "as the API"))} | ${Math.round(totals["one transaction"].perSecond)} | ${formatRatio(ratio(creation, "engine", "one transaction"))} |`
    }),
    "",
    "Goals: at least 1,000 payments/s on SQLite in one process; engine / limit (two transactions) of at least 0.5 on",
    "both databases (issue 24; it was 0.25).",
    "",
    ...results.flatMap(({ database, creation, creationDriver: driver }) => {
      if (driver === undefined) return []
      const pair = (side: "engine" | Shape) => 1e6 / creation.totals[side].perSecond
      const [engine, limit] = [pair("engine"), pair("as the API")]
      const micros = (n: number) => String(Math.round(n))
      return [
        `Where a pair's time goes on the ${database}, in the same turns: inside better-sqlite3 (the time within its`,
        "calls, which run the statement) and in the JavaScript above it (the rest of the pair). For engine / limit to",
        "reach 0.5, the engine's pair may take twice the limit's; what is left of that once its own statements have",
        "run is what its JavaScript may take.",
        "",
        "| µs a pair | Whole pair | Inside better-sqlite3 | JavaScript above it |",
        "|---|---|---|---|",
        `| Engine | ${micros(engine)} | ${micros(driver.engine)} | ${micros(engine - driver.engine)} |`,
        `| Limit, two transactions | ${micros(limit)} | ${micros(driver.limit)} | ${micros(limit - driver.limit)} |`,
        `| Engine at 0.5 of the limit, with its statements as now | ${micros(2 * limit)} | ${micros(driver.engine)} | ${micros(2 * limit - driver.engine)} |`,
        "",
      ]
    }),
    "## Round trips",
    "",
    "What the engine sends its database, counted at the driver in the bench's process (`bench/round-trips.ts`):",
    "on Postgres each `pg` query is a round trip (a BEGIN or a COMMIT is one); on SQLite, statements run. The",
    `limit's pair sends ${limitStatements} (begin, quote, commit; begin, payment, job, commit), which the bench checks the`,
    "count sees. A pair and a GET are each the mean of 20 in a row; a GET goes through the app over HTTP, its bearer",
    "token's check included. Executing a payment: its `execute_payment` job, run by `engine.jobs.runDue()`, from a",
    "provider that answers at once, its events and their fan-out included; the job's own statements (the mean of 5,",
    "with no webhook endpoint and with one on every payment event), and the runner's to take a job and mark it done",
    "(`runDue` with one empty job due, less `runDue` with none).",
    "",
    "| Database | Quote + payment, in-process | Over HTTP | GET over HTTP | Execution: job, no endpoint | Job, one endpoint | Runner | Total, no endpoint | Total, one endpoint |",
    "|---|---|---|---|---|---|---|---|---|",
    ...results
      .map(({ database, http: { trips }, execution: e }) =>
        [
          database,
          ...[trips.pairInProcess, trips.pairOverHttp, trips.get, e.jobAlone, e.jobWithEndpoint, e.runner].map(
            statements,
          ),
          statements(e.jobAlone + e.runner),
          statements(e.jobWithEndpoint + e.runner),
        ].join(" | "),
      )
      .map((row) => `| ${row} |`),
    "",
    "Goal: executing a payment in at most 12 round trips on Postgres, claim to completion (issue 24, which counted",
    "17 with no endpoint).",
    "",
    "## The HTTP path",
    "",
    "Measured in the same run, over a real socket on 127.0.0.1: the Koa app of `@payments-engine/http-koa` as the",
    "service builds it (`createApp` with `apiRoutes`: request id, access log at `info` to /dev/null, error rendering,",
    "bearer authentication, the route), with a bearer token from `POST /api/v1/sessions`, and no job runner. The client",
    "is in the same process and sends one request at a time on one keep-alive connection (a node:http `Agent`; the",
    "servers keep an idle connection for minutes, so a client waiting for its turn finds it open), so its own cost is",
    `in every figure, on both sides of each ratio. The sides take turns: ${rounds} rounds, each a slice of every side,`,
    `after ${httpWarmUp.gets} untimed GETs or ${httpWarmUp.pairs} pairs on each side; figures and ratios as above.`,
    "",
    `GET of one company (\`GET /api/v1/companies/{id}\`, SQLite, ${getBytes(results)} bytes of JSON), against a bare`,
    "Koa route (Koa and `@koa/router`, nothing else) answering the same bytes, and the same read through the engine's",
    "Promise API without HTTP. CPU time is this process's, all threads, client included; on a busy machine it moves",
    `far less than requests/s. Requests a slice: ${httpBudget.getsPerSlice}.`,
    "",
    "| Database | Side | Requests/s | CPU µs a request |",
    "|---|---|---|---|",
    ...results.flatMap(({ database, http: { get } }) => {
      if (get === undefined) return []
      const { totals } = get.turns
      return [
        `| ${database} | App | ${Math.round(totals.app.perSecond)} | ${Math.round(totals.app.cpuMicros)} |`,
        `| | Bare Koa route | ${Math.round(totals.bare.perSecond)} | ${Math.round(totals.bare.cpuMicros)} |`,
        `| | App / bare, as speeds | ${formatRatio(ratio(get.turns, "app", "bare"))} | ${formatRatio(ratio(get.turns, "app", "bare", "cpu"))} |`,
        `| | Engine in-process | ${Math.round(totals.inProcess.perSecond)} | ${Math.round(totals.inProcess.cpuMicros)} |`,
      ]
    }),
    "",
    "Goal: the app at least 0.4 of the bare Koa route by CPU (issue 24).",
    "",
    "Quote + payment pairs over HTTP (`POST .../quotes`, then `POST .../payments` with the quote's id), against the",
    "same pairs made in-process on the same engine and storage (a fresh one, not the one of the first table), and the",
    "same two requests to a bare Koa app (Koa and `@koa/router`, nothing else) that reads each body to its end,",
    "keeping nothing, and answers the app's bytes of one pair: the HTTP of a pair, client included, with nothing of",
    "the app or the engine in it.",
    "A pair over HTTP does both, the engine's pair and the bare pair's HTTP, so however thin the app, HTTP /",
    "in-process is at most in-process / (in-process + bare), which the last columns give for this run.",
    `The CPU time leaves out the Postgres server's. Pairs a slice: ${httpBudget.pairsPerSlice}.`,
    "",
    "| Database | In-process (pairs/s) | Over HTTP (pairs/s) | HTTP / in-process | CPU µs a pair, in-process | Over HTTP | In-process / HTTP | Bare pair (pairs/s) | CPU µs a bare pair | At most, as speeds | At most, by CPU |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...results.map(({ database, http: { pairs } }) => {
      const { inProcess, http, bare } = pairs.totals
      return `| ${database} | ${Math.round(inProcess.perSecond)} | ${Math.round(http.perSecond)} | ${formatRatio(ratio(pairs, "http", "inProcess"))} | ${Math.round(inProcess.cpuMicros)} | ${Math.round(http.cpuMicros)} | ${formatRatio(ratio(pairs, "http", "inProcess", "cpu"))} | ${Math.round(bare.perSecond)} | ${Math.round(bare.cpuMicros)} | ${formatRatio(ceiling(pairs, "inProcess", "bare"))} | ${formatRatio(ceiling(pairs, "inProcess", "bare", "cpu"))} |`
    }),
    "",
    "Goal: pairs over HTTP at least 0.5 of in-process on both databases (issue 24); a goal above the last columns",
    "cannot be met by the app, only by a cheaper HTTP of the pair (client and server) or a slower engine.",
    "",
    // A blank line before the analysis that follows, or the last table runs into its heading.
    "",
  ]
  return lines.join("\n")
}

// Read before the bench adds its own load: it tells a reader whether the machine was quiet.
const startLoad = loadNow()
console.log(`Load average (1 min) at the start: ${startLoad.toFixed(2)}`)
const results = [await measureSqlite()]
if (process.env.DATABASE_URL?.startsWith("postgres")) results.push(await measurePostgres(process.env.DATABASE_URL))
const endLoad = loadNow()
console.log(`Load average (1 min) at the end: ${endLoad.toFixed(2)}`)
const text = report(results, endLoad)
const resultsFile = new URL("../docs/benchmarks.md", import.meta.url)
// The analysis below the figures is written by people; a new run replaces only the figures.
const previous = existsSync(resultsFile) ? readFileSync(resultsFile, "utf8") : ""
const analysis = previous.indexOf("\n## Where the time goes")
writeFileSync(resultsFile, analysis === -1 ? text : `${text}${previous.slice(analysis + 1)}`)
console.log(text)
