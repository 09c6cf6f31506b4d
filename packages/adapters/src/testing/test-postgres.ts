import { randomBytes } from "node:crypto"
import type { PGlite } from "@electric-sql/pglite"
import { CompiledQuery, Kysely } from "kysely"
import { createKyselyStorage, type KyselyStorage } from "../storage/kysely-storage.ts"
import { postgresDialect } from "../storage/postgres/postgres-dialect.ts"
import { ensureSchema, graphileWorkerSchema, quoteIdentifier } from "../storage/postgres/postgres-schemas.ts"
import type { StorageTables } from "../storage/storage-tables.ts"
import { parseStorageUrl } from "../storage/storage-url.ts"
import { pgliteStorageDialect, SessionLock } from "./pglite/pglite-dialect.ts"
import { storageTracker, type TestStorages } from "./test-storages.ts"

/** Options of {@link openTestPostgres}. */
export interface TestPostgresOptions {
  /** The server to use; `process.env.DATABASE_URL` by default. Without one, PGlite runs in memory. */
  readonly databaseUrl?: string
  /**
   * On a server, hand a schema whose storages are all closed to the next `factory()` call with its
   * rows deleted, instead of creating and migrating a new one: each storage then costs a reopen
   * and a `DELETE` of every table instead of a migration of both schemas (docs/adapters.md has
   * the times). For tests that each open a storage and close it, as the
   * contract suite does; a schema still open (`reopen`) is never handed out. False by default.
   */
  readonly recycleSchemas?: boolean
}

/** Postgres storages for tests, on a server (`DATABASE_URL`) or on an in-process PGlite. */
export type TestPostgres = TestStorages<"server" | "pglite">

/** A schema name no other test file, process or run uses. */
const uniqueSchema = (count: number) => `test_${process.pid}_${count}_${randomBytes(5).toString("hex")}`

const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Tables a recycled schema keeps: which migrations ran, and graphile-worker's names of task kinds. */
const keptTables = new Set(["kysely_migration", "kysely_migration_lock", "migrations", "_private_tasks"])

/**
 * Deletes every row of the storage's schema and of its graphile-worker schema but what
 * {@link keptTables} keeps, in one statement, rows that refer to others first. `DELETE`, not
 * `TRUNCATE`: on tables of a few rows it takes a few milliseconds, where `TRUNCATE` makes new
 * files for each table and took 300 to 800 ms on a loaded machine.
 */
const emptySchema = async (storage: KyselyStorage, schema: string) => {
  const inSchemas = [schema, graphileWorkerSchema(schema)]
  const { rows: tables } = await storage.db.executeQuery<{ name: string; qualified: string }>(
    CompiledQuery.raw(
      `select tablename as name, quote_ident(schemaname) || '.' || quote_ident(tablename) as qualified
         from pg_tables where schemaname in ($1, $2)`,
      inSchemas,
    ),
  )
  const { rows: references } = await storage.db.executeQuery<{ from: string; to: string }>(
    CompiledQuery.raw(
      `select quote_ident(fn.nspname) || '.' || quote_ident(f.relname) as "from",
              quote_ident(tn.nspname) || '.' || quote_ident(t.relname) as "to"
         from pg_constraint c
         join pg_class f on f.oid = c.conrelid join pg_namespace fn on fn.oid = f.relnamespace
         join pg_class t on t.oid = c.confrelid join pg_namespace tn on tn.oid = t.relnamespace
        where c.contype = 'f' and fn.nspname in ($1, $2)`,
      inSchemas,
    ),
  )
  const left = new Set(tables.filter((t) => !keptTables.has(t.name)).map((t) => t.qualified))
  const ordered: Array<string> = []
  // A table goes once no table still to empty refers to it.
  while (left.size > 0) {
    const next = [...left].filter(
      (table) => !references.some((r) => r.to === table && r.from !== table && left.has(r.from)),
    )
    if (next.length === 0) throw new Error(`openTestPostgres: cannot order the tables of ${schema} by their references`)
    for (const table of next) {
      left.delete(table)
      ordered.push(table)
    }
  }
  if (ordered.length === 0) return
  const deletes = ordered.map((table) => `delete from ${table};`).join(" ")
  await storage.db.executeQuery(CompiledQuery.raw(`do $$ begin ${deletes} end $$`))
}

const onServer = (connectionString: string, recycleSchemas: boolean): TestPostgres => {
  const tracker = storageTracker()
  const schemas = new WeakMap<KyselyStorage, string>()
  const created: Array<string> = []
  /** How many storages are open on each schema this source made: one with none can be handed out again. */
  const openOn = new Map<string, number>()
  let count = 0
  let closed = false

  const open = async (schema: string) => {
    if (closed) throw new Error("openTestPostgres: the source is closed")
    // Counted before anything is awaited, so that two factory calls never pick one idle schema.
    openOn.set(schema, (openOn.get(schema) ?? 0) + 1)
    const released = async () => {
      openOn.set(schema, (openOn.get(schema) ?? 1) - 1)
    }
    try {
      // Loaded here, not at import: the testing entry serves SQLite and PGlite without pg installed.
      const { openPostgresStorage } = await import("../storage/postgres/postgres-storage.ts")
      const storage = await openPostgresStorage({ connectionString, schema, maxConnections: 5, onClose: released })
      tracker.track(storage)
      schemas.set(storage, schema)
      if (!created.includes(schema)) created.push(schema)
      return storage
    } catch (error) {
      await released()
      throw new Error(`openTestPostgres: cannot open a storage on DATABASE_URL: ${describeError(error)}`, {
        cause: error,
      })
    }
  }

  /** A schema no storage is open on, emptied, or else a new one. */
  const fresh = async () => {
    const idle = recycleSchemas ? created.find((schema) => openOn.get(schema) === 0) : undefined
    if (idle === undefined) {
      count += 1
      return open(uniqueSchema(count))
    }
    const storage = await open(idle)
    try {
      await emptySchema(storage, idle)
    } catch (error) {
      await storage.close()
      throw error
    }
    return storage
  }

  return {
    kind: "server",
    factory: fresh,
    reopen: (storage) => {
      const schema = schemas.get(storage)
      if (schema === undefined) return Promise.reject(new Error("openTestPostgres: not a storage of this source"))
      return open(schema)
    },
    close: async () => {
      closed = true
      await tracker.closeAll()
      if (created.length === 0) return
      const { default: pg } = await import("pg")
      const client = new pg.Client({ connectionString })
      await client.connect()
      try {
        for (const schema of created.splice(0))
          for (const each of [schema, graphileWorkerSchema(schema)])
            await client.query(`drop schema if exists ${quoteIdentifier(each)} cascade`)
      } finally {
        await client.end()
      }
    },
  }
}

/** PGlite is one connection in this process: one transaction at a time, never shared by processes. */
const pgliteCapabilities = { multiProcess: false, concurrentTransactions: false } as const

const onPGlite = (): TestPostgres => {
  const tracker = storageTracker()
  const schemas = new WeakMap<KyselyStorage, string>()
  const lock = new SessionLock()
  let instance: Promise<PGlite> | undefined
  let count = 0
  let closed = false

  const start = async (): Promise<PGlite> => {
    const { PGlite } = await import("@electric-sql/pglite")
    return PGlite.create()
  }

  const open = async (schema: string) => {
    if (closed) throw new Error("openTestPostgres: the source is closed")
    instance ??= start()
    const db = new Kysely<StorageTables>({ dialect: pgliteStorageDialect(await instance, { schema, lock }) })
    try {
      await ensureSchema(db, schema)
      const storage = tracker.track(
        await createKyselyStorage(db, { dialect: postgresDialect, capabilities: pgliteCapabilities }),
      )
      schemas.set(storage, schema)
      return storage
    } catch (error) {
      await db.destroy()
      throw error
    }
  }

  return {
    kind: "pglite",
    factory: () => {
      count += 1
      return open(uniqueSchema(count))
    },
    reopen: (storage) => {
      const schema = schemas.get(storage)
      if (schema === undefined) return Promise.reject(new Error("openTestPostgres: not a storage of this source"))
      return open(schema)
    },
    close: async () => {
      closed = true
      await tracker.closeAll()
      const started = instance
      instance = undefined
      // Every schema lives in this in-memory PGlite: closing it removes them all.
      if (started !== undefined) await (await started).close()
    },
  }
}

/**
 * Isolated Postgres storages for tests. With `DATABASE_URL` set (CI), every `factory()` call opens
 * a storage on that server in a new uniquely named schema, and `close()` drops those schemas;
 * an unreachable server makes `factory()` reject: tests fail, they are never skipped. Without it,
 * one in-memory PGlite (started on the first call) serves every storage of this source, each in
 * its own schema. Call it once per test file and `close()` it after all tests.
 *
 * @example
 * declare const kyselyContractReader: (storage: KyselyStorage) => ContractReader // see the contract suite
 * const postgres = openTestPostgres()
 * afterAll(postgres.close)
 * runContractSuite({ name: "kysely/postgres", factory: postgres.factory, reader: kyselyContractReader })
 */
export const openTestPostgres = (options: TestPostgresOptions = {}): TestPostgres => {
  const url = options.databaseUrl ?? process.env.DATABASE_URL
  if (url === undefined || url.trim() === "") return onPGlite()
  const location = parseStorageUrl(url)
  if (location.dialect !== "postgres") {
    throw new Error("openTestPostgres: DATABASE_URL is set but is not a postgres:// URL; unset it to run on PGlite")
  }
  return onServer(location.connectionString, options.recycleSchemas ?? false)
}

/**
 * Runs one SQL statement on a storage's own handle, outside its repositories: for tests that read
 * back what a write did.
 *
 * @example
 * const rows = await rawQuery<{ n: number }>(storage, "select count(*) as n from entities") // [{ n: 3 }]
 */
export const rawQuery = async <Row>(
  storage: KyselyStorage,
  text: string,
  parameters: ReadonlyArray<unknown> = [],
): Promise<ReadonlyArray<Row>> => (await storage.db.executeQuery<Row>(CompiledQuery.raw(text, [...parameters]))).rows
