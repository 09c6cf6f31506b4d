import type BetterSqlite3 from "better-sqlite3"
import { type Dialect, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql } from "kysely"
import { withDirectStatements } from "../direct-statements.ts"
import type { ImmediateConnection } from "../immediate-connection.ts"
import type { StorageDialect } from "../storage-dialect.ts"
import type { StorageTables } from "../storage-tables.ts"
import { SqliteConnection, SqliteStorageDriver } from "./sqlite-driver.ts"

/**
 * Kysely's SQLite dialect over a better-sqlite3 database, on the storage's own driver
 * ({@link SqliteStorageDriver}): transactions start with `BEGIN IMMEDIATE`, so a transaction takes
 * the write lock up front and two connections on one file wait for each other (`busy_timeout`)
 * instead of failing when a reader turns writer. Its one connection runs prepared statements
 * directly (see `direct-statements.ts`) for whoever holds it, and is the dialect's `connection`,
 * which a storage may take itself (see `KyselyStorageOptions.connection`).
 *
 * @example
 * import Database from "better-sqlite3"
 * const db = new Kysely<StorageTables>({ dialect: sqliteStorageDialect(new Database("app.sqlite")) })
 */
export const sqliteStorageDialect = (
  database: BetterSqlite3.Database,
): Dialect & { readonly connection: ImmediateConnection } => {
  const connection = new SqliteConnection(database)
  withDirectStatements(connection, connection.statements)
  const driver = new SqliteStorageDriver(database, connection)
  const dialect: Dialect = {
    createAdapter: () => new SqliteAdapter(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createDriver: () => driver,
  }
  const provider = { provideConnection: <T>(consume: (held: SqliteConnection) => Promise<T>) => consume(connection) }
  return {
    ...dialect,
    connection: {
      lock: connection.lock,
      statements: connection.statements,
      begin: () => connection.begin(),
      commit: () => connection.commit(),
      rollback: () => connection.rollback(),
      handleOn: (db) =>
        new Kysely<StorageTables>({
          config: { dialect },
          dialect,
          driver,
          executor: db.getExecutor().withConnectionProvider(provider),
        }),
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
  supportsWritingCte: false,
  supportsSchemas: false,
  hostsGraphileWorker: false,
  textType: sql`text`,
  capabilities: { multiProcess: false, concurrentTransactions: false },
}
