import {
  type DatabaseIntrospector,
  type Kysely,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
  Migrator,
  sql,
} from "kysely"
import { featuresSchema } from "./features-migration.ts"
import { jobKeysSchema } from "./job-keys-migration.ts"
import { moneyMovementSchema } from "./money-movement-migration.ts"

/** The SQL dialects the Kysely storage runs on. */
export type StorageDialect = "sqlite" | "postgres"

/**
 * Text columns compare byte-wise on both dialects: Postgres gets the "C" collation, so ids and
 * ISO 8601 timestamps sort and compare exactly as on SQLite, whatever the database's locale.
 */
const textType = (dialect: StorageDialect) => (dialect === "postgres" ? sql`text collate "C"` : sql`text`)

/** The first schema: workspaces, API keys, companies, entities, recipients, idempotency, settings. */
const initialSchema = (dialect: StorageDialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const text = textType(dialect)

    await db.schema
      .createTable("workspaces")
      .addColumn("id", text, (c) => c.primaryKey())
      .addColumn("name", text, (c) => c.notNull())
      .addColumn("created_at", text, (c) => c.notNull())
      .addUniqueConstraint("workspaces_name_key", ["name"])
      .execute()

    await db.schema
      .createTable("api_keys")
      .addColumn("id", text, (c) => c.primaryKey())
      .addColumn("workspace_id", text, (c) => c.notNull())
      .addColumn("key", text, (c) => c.notNull())
      .addColumn("secret_hash", text, (c) => c.notNull())
      .addColumn("scope", text, (c) => c.notNull())
      .addColumn("created_at", text, (c) => c.notNull())
      .addUniqueConstraint("api_keys_key_key", ["key"])
      .addForeignKeyConstraint("api_keys_workspace_id_fkey", ["workspace_id"], "workspaces", ["id"])
      .execute()
    await db.schema.createIndex("api_keys_by_workspace").on("api_keys").columns(["workspace_id", "id"]).execute()

    await db.schema
      .createTable("companies")
      .addColumn("id", text, (c) => c.primaryKey())
      .addColumn("workspace_id", text, (c) => c.notNull())
      .addColumn("name", text, (c) => c.notNull())
      .addColumn("country", text, (c) => c.notNull())
      .addColumn("default_currency", text, (c) => c.notNull())
      .addColumn("role", text, (c) => c.notNull())
      .addColumn("created_at", text, (c) => c.notNull())
      .addColumn("updated_at", text, (c) => c.notNull())
      .addColumn("deleted_at", text)
      .execute()
    await db.schema
      .createIndex("companies_live_by_workspace")
      .on("companies")
      .columns(["workspace_id", "id"])
      .where(sql.ref("deleted_at"), "is", null)
      .execute()

    await db.schema
      .createTable("entities")
      .addColumn("id", text, (c) => c.primaryKey())
      .addColumn("company_id", text, (c) => c.notNull())
      .addColumn("name", text, (c) => c.notNull())
      .addColumn("country_alpha2", text, (c) => c.notNull())
      .addColumn("payment_integration_active", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", text, (c) => c.notNull())
      .addColumn("updated_at", text, (c) => c.notNull())
      .addColumn("deleted_at", text)
      .addForeignKeyConstraint("entities_company_id_fkey", ["company_id"], "companies", ["id"])
      .execute()
    // At most one live entity per company: what `insertIfNoneActive` relies on under concurrency.
    await db.schema
      .createIndex("entities_one_live_per_company")
      .on("entities")
      .unique()
      .column("company_id")
      .where(sql.ref("deleted_at"), "is", null)
      .execute()
    await db.schema.createIndex("entities_by_company").on("entities").columns(["company_id", "id"]).execute()

    await db.schema
      .createTable("recipients")
      .addColumn("id", text, (c) => c.primaryKey())
      .addColumn("company_id", text, (c) => c.notNull())
      .addColumn("name", text, (c) => c.notNull())
      .addColumn("email", text)
      .addColumn("created_at", text, (c) => c.notNull())
      .addColumn("updated_at", text, (c) => c.notNull())
      .addColumn("deleted_at", text)
      .addForeignKeyConstraint("recipients_company_id_fkey", ["company_id"], "companies", ["id"])
      .execute()
    await db.schema
      .createIndex("recipients_live_by_company")
      .on("recipients")
      .columns(["company_id", "id"])
      .where(sql.ref("deleted_at"), "is", null)
      .execute()

    await db.schema
      .createTable("idempotency_records")
      .addColumn("workspace_id", text, (c) => c.notNull())
      .addColumn("key", text, (c) => c.notNull())
      .addColumn("fingerprint", text, (c) => c.notNull())
      .addColumn("response_status", "integer")
      .addColumn("response_body", text)
      .addColumn("created_at", text, (c) => c.notNull())
      .addColumn("expires_at", text, (c) => c.notNull())
      .addColumn("locked_until", text)
      .addPrimaryKeyConstraint("idempotency_records_pkey", ["workspace_id", "key"])
      .execute()
    await db.schema
      .createIndex("idempotency_records_by_expiry")
      .on("idempotency_records")
      .column("expires_at")
      .execute()

    await db.schema
      .createTable("settings")
      .addColumn("name", text, (c) => c.primaryKey())
      .addColumn("value", text, (c) => c.notNull())
      .execute()
  },
})

/**
 * Every migration of the storage, by name, in order. One set for both dialects: only the text
 * collation differs.
 *
 * @example
 * const migrator = new Migrator({ db, provider: storageMigrations("sqlite") })
 */
export const storageMigrations = (dialect: StorageDialect): MigrationProvider => ({
  getMigrations: async () => ({
    "0001_initial": initialSchema(dialect),
    "0002_money_movement": moneyMovementSchema(dialect),
    "0003_features": featuresSchema(dialect),
    "0004_job_keys": jobKeysSchema(dialect),
  }),
})

/** Options of {@link migrateStorage}. */
export interface MigrateStorageOptions {
  readonly dialect: StorageDialect
  /**
   * Postgres schema that holds Kysely's migration bookkeeping tables. Defaults to the
   * connection's `current_schema()`, the schema the storage's own tables are created in.
   */
  readonly migrationTableSchema?: string
}

/**
 * Brings the database up to the latest migration; running it again changes nothing. Rejects with
 * the migration's error when one fails.
 *
 * @example
 * await migrateStorage(db, { dialect: "postgres" })
 */
export const migrateStorage = async <DB>(handle: Kysely<DB>, options: MigrateStorageOptions): Promise<void> => {
  const db = handle as unknown as Kysely<unknown>
  const migrationTableSchema =
    options.migrationTableSchema ?? (options.dialect === "postgres" ? await currentSchema(db) : undefined)
  const migrator = new Migrator({
    db: migrationTableSchema === undefined ? db : introspectingOneSchema(db, migrationTableSchema),
    provider: storageMigrations(options.dialect),
    // Without a schema, Kysely's check for its own tables looks at every schema, and a second
    // storage in another schema of the same database would think it had been migrated already.
    ...(migrationTableSchema === undefined ? {} : { migrationTableSchema }),
  })
  const outcome: MigrationResultSet = await migrator.migrateToLatest()
  if (outcome.error !== undefined) {
    const failed = outcome.results?.find((result) => result.status === "Error")
    const cause = outcome.error
    throw new Error(
      `storage migration ${failed?.migrationName ?? "set-up"} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    )
  }
}

/**
 * The database handle with an introspector that lists the tables of one schema only. Kysely's
 * migrator lists every table of the database to find its own, and Postgres's catalogue functions
 * fail on a table another process is creating or dropping in another schema at that moment (a
 * second storage, graphile-worker's migrations), which failed migrations at random.
 */
const introspectingOneSchema = (db: Kysely<unknown>, schema: string): Kysely<unknown> => {
  const introspection: DatabaseIntrospector = {
    getSchemas: async () =>
      (await sql<{ name: string }>`select nspname as name from pg_namespace`.execute(db)).rows.map((row) => ({
        name: row.name,
      })),
    getTables: async () =>
      (
        await sql<{ name: string; type: string }>`select table_name as name, table_type as type
          from information_schema.tables where table_schema = ${schema}`.execute(db)
      ).rows.map((row) => ({ name: row.name, schema, isView: row.type === "VIEW", columns: [] })),
    getMetadata: async () => ({ tables: await introspection.getTables() }),
  }
  return new Proxy(db, {
    get: (target, property) => {
      if (property === "introspection") return introspection
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === "function" ? value.bind(target) : value
    },
  })
}

const currentSchema = async (db: Kysely<unknown>): Promise<string> => {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)
  const schema = rows[0]?.schema
  if (schema === null || schema === undefined) {
    throw new Error("storage migration: the connection has no current schema (does the search_path schema exist?)")
  }
  return schema
}
