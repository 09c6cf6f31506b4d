import Database from "better-sqlite3"
import { Kysely, PostgresAdapter, SqliteAdapter, sql } from "kysely"
import { describe, expect, it } from "vitest"
import { createKyselyStorage } from "./kysely-storage.ts"
import { postgresDialect } from "./postgres/postgres-dialect.ts"
import { sqliteDialect, sqliteStorageDialect } from "./sqlite/sqlite-dialect.ts"
import type { StorageDialect } from "./storage-dialect.ts"
import type { StorageTables } from "./storage-tables.ts"

describe("storage dialects", () => {
  it("say what Kysely's own adapters say of RETURNING and of migrations in a transaction", () => {
    const kyselyAdapters = [
      [sqliteDialect, new SqliteAdapter()],
      [postgresDialect, new PostgresAdapter()],
    ] as const
    for (const [dialect, adapter] of kyselyAdapters) {
      expect({
        name: dialect.name,
        supportsReturning: dialect.supportsReturning,
        supportsTransactionalDdl: dialect.supportsTransactionalDdl,
      }).toEqual({
        name: dialect.name,
        supportsReturning: adapter.supportsReturning,
        supportsTransactionalDdl: adapter.supportsTransactionalDdl,
      })
    }
  })

  it("refuse a dialect without what every statement assumes, naming it, before creating any table", async () => {
    const mysqlLike: StorageDialect = {
      ...postgresDialect,
      name: "mysql",
      supportsReturning: false,
      supportsPartialIndexes: false,
      supportsOnConflict: false,
    }
    const db = new Kysely<StorageTables>({ dialect: sqliteStorageDialect(new Database(":memory:")) })
    try {
      await expect(createKyselyStorage(db, { dialect: mysqlLike })).rejects.toThrow(
        'the Kysely storage cannot run on mysql: it lacks supportsReturning, supportsPartialIndexes, supportsOnConflict (see docs/adapters.md, "A third dialect")',
      )
      const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
      expect(rows).toEqual([])
    } finally {
      await db.destroy()
    }
  })
})
