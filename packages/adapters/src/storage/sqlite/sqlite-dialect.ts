import type BetterSqlite3 from "better-sqlite3"
import { CompiledQuery, type Dialect, type Driver, SqliteDialect, sql } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"

/** How many distinct statements stay prepared; the engine uses far fewer. */
const statementCacheSize = 500

/**
 * The database with `prepare` remembered per SQL text: Kysely prepares every query it runs, and
 * preparing costs as much as running a small one. Oldest statements are dropped past
 * {@link statementCacheSize}.
 */
const withStatementCache = (database: BetterSqlite3.Database): BetterSqlite3.Database => {
  const statements = new Map<string, BetterSqlite3.Statement>()
  const prepare = (source: string) => {
    const cached = statements.get(source)
    if (cached !== undefined) return cached
    const statement = database.prepare(source)
    if (statements.size >= statementCacheSize) statements.delete(statements.keys().next().value as string)
    statements.set(source, statement)
    return statement
  }
  return new Proxy(database, {
    get: (target, property, receiver) => (property === "prepare" ? prepare : Reflect.get(target, property, receiver)),
  })
}

/**
 * Kysely's SQLite dialect over a better-sqlite3 database, except that transactions start with
 * `BEGIN IMMEDIATE`: a transaction takes the write lock up front, so two connections on one
 * file wait for each other (`busy_timeout`) instead of failing when a reader turns writer.
 *
 * @example
 * import Database from "better-sqlite3"
 * const db = new Kysely<StorageTables>({ dialect: sqliteStorageDialect(new Database("app.sqlite")) })
 */
export const sqliteStorageDialect = (database: BetterSqlite3.Database): Dialect => {
  const inner = new SqliteDialect({ database: withStatementCache(database) })
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: (): Driver => {
      const driver = inner.createDriver()
      return {
        init: () => driver.init(),
        acquireConnection: () => driver.acquireConnection(),
        beginTransaction: async (connection) => {
          await connection.executeQuery(CompiledQuery.raw("begin immediate"))
        },
        commitTransaction: (connection) => driver.commitTransaction(connection),
        rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
        releaseConnection: (connection) => driver.releaseConnection(connection),
        destroy: () => driver.destroy(),
      }
    },
  }
}

/**
 * What the storage's SQL may rely on in SQLite: everything it assumes, but no row locks (one
 * writer at a time) and no schemas. One process and one transaction at a time.
 *
 * @example
 * const storage = await createKyselyStorage(db, { dialect: sqliteDialect })
 */
export const sqliteDialect: StorageDialect = {
  name: "sqlite",
  supportsReturning: true,
  supportsPartialIndexes: true,
  supportsOnConflict: true,
  supportsConflictTargetWhere: true,
  supportsTransactionalDdl: false,
  supportsRowLocks: false,
  supportsUpdateFromValues: false,
  supportsSchemas: false,
  hostsGraphileWorker: false,
  textType: sql`text`,
  capabilities: { multiProcess: false, concurrentTransactions: false },
}
