import type BetterSqlite3 from "better-sqlite3"
import { CompiledQuery, type Dialect, type Driver, SqliteDialect } from "kysely"

/**
 * Kysely's SQLite dialect over a better-sqlite3 database, except that transactions start with
 * `BEGIN IMMEDIATE`: a transaction takes the write lock up front, so two connections on one
 * file wait for each other (`busy_timeout`) instead of failing when a reader turns writer.
 *
 * @example
 * const db = new Kysely<StorageTables>({ dialect: sqliteStorageDialect(new Database("app.sqlite")) })
 */
export const sqliteStorageDialect = (database: BetterSqlite3.Database): Dialect => {
  const inner = new SqliteDialect({ database })
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
