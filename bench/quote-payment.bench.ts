/**
 * How fast the engine creates quotes and payments, against the limit of the database: the same
 * rows written straight through the driver, one transaction per payment.
 *
 *   npm run bench                          # SQLite file; Postgres too when DATABASE_URL is set
 *   BENCH_PAYMENTS=5000 npm run bench      # more payments per run
 *
 * Results go to docs/benchmarks.md with the machine and the date.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { cpus, totalmem, type } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  type KyselyStorage,
  openPostgresStorage,
  openSqliteStorage,
  randomIds,
  sandboxExamples,
  scryptHasher,
  systemClock,
} from "@payments-engine/adapters"
import { type Actor, createEngine } from "@payments-engine/core"
import Database from "better-sqlite3"
import pg from "pg"

const payments = Number(process.env.BENCH_PAYMENTS ?? 2000)
const copiedTables = ["quotes", "payments", "jobs"] as const

interface Measurement {
  readonly database: string
  readonly engine: number
  readonly limit: number
}

/** Creates `payments` quote + payment pairs through the engine's Promise API; payments per second. */
const runEngine = async (storage: KyselyStorage): Promise<number> => {
  const engine = createEngine({
    storage,
    clock: systemClock,
    ids: randomIds(),
    hasher: scryptHasher(),
    paymentProvider: createSandboxPaymentProvider(),
    bankLinker: createSandboxBankLinker(),
  })
  const { id: workspaceId } = await engine.access.ensureWorkspace("bench")
  const actor: Actor = { workspaceId, scope: "write" }
  const company = await engine.companies.create(actor, { name: "Bench Inc", country: "US", default_currency: "USD" })
  const entity = await engine.entities.create(actor, company.id, { name: "Bench Inc", country_alpha2: "US" })
  const recipient = await engine.recipients.create(actor, company.id, { name: "Supplier" })
  const account = await engine.bankAccounts.createForRecipient(actor, company.id, recipient.id, {
    entity_id: entity.id,
    beneficiary_details: sandboxExamples.US_ACH,
  })
  const funding = await engine.fundingAccounts.link(actor, entity.id, {})
  const from = funding.payment_profiles[0]!.id
  const to = account.payment_profiles[0]!.id

  const started = performance.now()
  for (let i = 0; i < payments; i++) {
    const quote = await engine.quotes.create(actor, company.id, {
      quote: {
        from_profile_id: from,
        to_profile_id: to,
        instructed_amount: { amount: 100 + (i % 50), currency: "USD" },
      },
    })
    await engine.payments.create(actor, company.id, {
      payment_instruction: { payment_quote_id: quote.id, reason: "goods_purchased", idempotency_key: `bench-${i}` },
    })
  }
  return payments / ((performance.now() - started) / 1000)
}

/** The rows the engine wrote for its payments, to write again as the limit. */
const engineRows = async (storage: KyselyStorage) => {
  const rows: Record<string, ReadonlyArray<Record<string, unknown>>> = {}
  for (const table of copiedTables) {
    rows[table] = await storage.db.selectFrom(table).selectAll().orderBy("id").execute()
  }
  return rows as Record<(typeof copiedTables)[number], ReadonlyArray<Record<string, unknown>>>
}

/** The same rows with fresh ids and keys, so they can be inserted next to the originals. */
const freshCopies = (rows: Awaited<ReturnType<typeof engineRows>>, round: number) =>
  rows.payments.map((payment, i) => {
    const quote = rows.quotes.find((q) => q.id === payment.quote_id)!
    const job = rows.jobs[i]!
    const suffix = `_x${round}_${i}`
    return {
      quotes: { ...quote, id: `${quote.id}${suffix}` },
      payments: {
        ...payment,
        id: `${payment.id}${suffix}`,
        quote_id: `${quote.id}${suffix}`,
        idempotency_key: `${payment.idempotency_key}${suffix}`,
      },
      jobs: { ...job, id: `${job.id}${suffix}` },
    }
  })

const sqliteLimit = (filename: string, copies: ReturnType<typeof freshCopies>): number => {
  const db = new Database(filename)
  db.pragma("journal_mode = WAL")
  db.pragma("synchronous = NORMAL")
  const statements = Object.fromEntries(
    copiedTables.map((table) => {
      const columns = Object.keys(copies[0]![table])
      return [
        table,
        db.prepare(`insert into ${table} (${columns.join(",")}) values (${columns.map((c) => `@${c}`).join(",")})`),
      ]
    }),
  )
  const writeOne = db.transaction((copy: (typeof copies)[number]) => {
    for (const table of copiedTables) statements[table]!.run(copy[table])
  })
  const started = performance.now()
  for (const copy of copies) writeOne(copy)
  const perSecond = copies.length / ((performance.now() - started) / 1000)
  db.close()
  return perSecond
}

const postgresLimit = async (connectionString: string, schema: string, copies: ReturnType<typeof freshCopies>) => {
  const client = new pg.Client({ connectionString })
  await client.connect()
  await client.query(`set search_path to "${schema}"`)
  const inserts = copiedTables.map((table) => {
    const columns = Object.keys(copies[0]![table])
    return {
      table,
      columns,
      text: `insert into ${table} (${columns.join(",")}) values (${columns.map((_, i) => `$${i + 1}`).join(",")})`,
    }
  })
  const started = performance.now()
  for (const copy of copies) {
    await client.query("begin")
    for (const insert of inserts)
      await client.query(
        insert.text,
        insert.columns.map((c) => (copy[insert.table] as Record<string, unknown>)[c]),
      )
    await client.query("commit")
  }
  const perSecond = copies.length / ((performance.now() - started) / 1000)
  await client.end()
  return perSecond
}

const measureSqlite = async (): Promise<Measurement> => {
  const folder = mkdtempSync(join(process.env.TMPDIR ?? "/tmp", "pe-bench-"))
  try {
    const filename = join(folder, "bench.sqlite")
    const storage = await openSqliteStorage({ filename })
    const engine = await runEngine(storage)
    const rows = await engineRows(storage)
    await storage.close()
    const limit = sqliteLimit(filename, freshCopies(rows, 1))
    return { database: "SQLite file (better-sqlite3, WAL)", engine, limit }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

const measurePostgres = async (connectionString: string): Promise<Measurement> => {
  const schema = `pe_bench_${process.pid}`
  const storage = await openPostgresStorage({ connectionString, schema })
  try {
    const engine = await runEngine(storage)
    const limit = await postgresLimit(connectionString, schema, freshCopies(await engineRows(storage), 1))
    return { database: "Postgres (pg, same machine)", engine, limit }
  } finally {
    await storage.db.schema.dropSchema(schema).ifExists().cascade().execute()
    await storage.close()
  }
}

const report = (results: ReadonlyArray<Measurement>) => {
  const cpu = cpus()[0]?.model ?? "unknown CPU"
  const lines = [
    "# Benchmarks",
    "",
    "`npm run bench` (`bench/quote-payment.bench.ts`): quote + payment creation through the engine's Promise API,",
    "one after another in one process, against the limit: the same rows (quote, payment, its job) written",
    "straight through the database driver, one transaction per payment. Payment execution (the job) is not",
    "part of the measurement.",
    "",
    `Machine: ${type()} ${process.arch}, ${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}.`,
    `Date: ${new Date().toISOString().slice(0, 10)}. Payments per run: ${payments}.`,
    "",
    "| Database | Engine (payments/s) | Driver limit (payments/s) | Engine / limit |",
    "|---|---|---|---|",
    ...results.map(
      (r) =>
        `| ${r.database} | ${Math.round(r.engine)} | ${Math.round(r.limit)} | ${(r.engine / r.limit).toFixed(2)} |`,
    ),
    "",
    "Goal: at least 1,000 payments/s on SQLite in one process, and engine / limit of at least 0.25.",
    "",
  ]
  return lines.join("\n")
}

const results = [await measureSqlite()]
if (process.env.DATABASE_URL?.startsWith("postgres")) results.push(await measurePostgres(process.env.DATABASE_URL))
const text = report(results)
const resultsFile = new URL("../docs/benchmarks.md", import.meta.url)
// The analysis below the figures is written by people; a new run replaces only the figures.
const previous = existsSync(resultsFile) ? readFileSync(resultsFile, "utf8") : ""
const analysis = previous.indexOf("\n## Where the time goes")
writeFileSync(resultsFile, analysis === -1 ? text : `${text}${previous.slice(analysis + 1)}`)
console.log(text)
