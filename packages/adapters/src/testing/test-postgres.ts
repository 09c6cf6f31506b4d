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
}

/** Postgres storages for tests, on a server (`DATABASE_URL`) or on an in-process PGlite. */
export type TestPostgres = TestStorages<"server" | "pglite">

/** A schema name no other test file, process or run uses. */
const uniqueSchema = (count: number) => `test_${process.pid}_${count}_${randomBytes(5).toString("hex")}`

const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error))

const onServer = (connectionString: string): TestPostgres => {
  const tracker = storageTracker()
  const schemas = new WeakMap<KyselyStorage, string>()
  const created: Array<string> = []
  let count = 0
  let closed = false

  const open = async (schema: string) => {
    if (closed) throw new Error("openTestPostgres: the source is closed")
    try {
      // Loaded here, not at import: the testing entry serves SQLite and PGlite without pg installed.
      const { openPostgresStorage } = await import("../storage/postgres/postgres-storage.ts")
      const storage = tracker.track(await openPostgresStorage({ connectionString, schema, maxConnections: 5 }))
      schemas.set(storage, schema)
      if (!created.includes(schema)) created.push(schema)
      return storage
    } catch (error) {
      throw new Error(`openTestPostgres: cannot open a storage on DATABASE_URL: ${describeError(error)}`, {
        cause: error,
      })
    }
  }

  return {
    kind: "server",
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
  return onServer(location.connectionString)
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
