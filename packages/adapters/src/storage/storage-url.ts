import { existsSync } from "node:fs"
import { resolve } from "node:path"
import type { Storage } from "@payments-engine/core"
import type { MigrationStep } from "./migrations/migration-step.ts"
import { openSqliteStorage } from "./sqlite/sqlite-storage.ts"

/** Where a `DATABASE_URL` points, once read. */
export type StorageLocation =
  | { readonly dialect: "sqlite"; readonly filename: string }
  | { readonly dialect: "postgres"; readonly connectionString: string; readonly schema?: string }

const expected = "expected sqlite:<path>, sqlite::memory: or postgres://user@host:port/database"

/**
 * Reads a `DATABASE_URL`: `sqlite:<path>` (also `sqlite://<path>`), `sqlite::memory:`, or
 * `postgres://...` / `postgresql://...`, whose optional `schema` query parameter names the schema
 * of the tables. Throws an Error naming the accepted forms for anything else (without echoing
 * credentials).
 *
 * @example
 * parseStorageUrl("sqlite:./data/payments.sqlite") // { dialect: "sqlite", filename: "./data/payments.sqlite" }
 */
export const parseStorageUrl = (url: string): StorageLocation => {
  const value = url.trim()
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase()
  if (scheme === undefined) {
    throw new Error(`Unsupported DATABASE_URL: no scheme; ${expected}`)
  }
  if (scheme === "sqlite") {
    let path = value.slice("sqlite:".length)
    if (path.startsWith("//")) path = path.slice(2)
    if (path === "") throw new Error(`Unsupported DATABASE_URL "sqlite:": the path is empty; ${expected}`)
    return { dialect: "sqlite", filename: path }
  }
  if (scheme === "postgres" || scheme === "postgresql") {
    let parsed: URL
    try {
      parsed = new URL(value)
    } catch {
      throw new Error(`Unsupported DATABASE_URL: not a valid ${scheme}:// URL; ${expected}`)
    }
    const schema = parsed.searchParams.get("schema")
    if (schema === null) return { dialect: "postgres", connectionString: value }
    if (schema === "") throw new Error("Unsupported DATABASE_URL: the schema parameter is empty")
    parsed.searchParams.delete("schema")
    return { dialect: "postgres", connectionString: parsed.toString(), schema }
  }
  throw new Error(`Unsupported DATABASE_URL scheme "${scheme}:"; ${expected}`)
}

/** The packages the Postgres storage loads: optional peer dependencies, absent on SQLite. */
const postgresPackages = ["pg", "graphile-worker"]

/** Whether `error` is Node failing to find one of {@link postgresPackages}, from ESM or CommonJS. */
const isMissingPostgresPackage = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false
  return postgresPackages.some((name) => error.message.includes(`'${name}'`))
}

/**
 * The Postgres storage (`@payments-engine/adapters/postgres`), loaded for a postgres:// URL only:
 * it imports pg and graphile-worker, which an embedder on SQLite need not install.
 */
const loadPostgresStorage = async () => {
  try {
    return await import("./postgres/postgres-storage.ts")
  } catch (error) {
    if (!isMissingPostgresPackage(error)) throw error
    throw new Error(
      `a postgres:// DATABASE_URL needs the pg and graphile-worker packages: npm install ${postgresPackages.join(" ")}`,
      { cause: error },
    )
  }
}

/** Options of {@link openStorageFromUrl}. */
export interface OpenStorageOptions {
  /**
   * One-time set-up of the migrated storage (a first API key, say). On Postgres it runs under the
   * start-up lock, so processes starting together on one database set up one after another, each
   * seeing what the one before did; see `openPostgresStorage`. When it rejects, the storage
   * is closed and opening rejects with its reason.
   */
  readonly setUp?: (storage: Storage) => Promise<void>
  /** Told of each migration step that ran, with its duration, for a log (see `openPostgresStorage`). */
  readonly onMigration?: (step: MigrationStep) => void
}

/**
 * Opens the storage a `DATABASE_URL` names (see {@link parseStorageUrl}): SQLite through
 * {@link openSqliteStorage}, Postgres through `openPostgresStorage` of
 * `@payments-engine/adapters/postgres`, loaded only then. Without the pg and graphile-worker
 * packages a postgres:// URL rejects with an Error saying to install them. Typed as the storage
 * port, as {@link openSqliteStorage} is; `kyselyStorageOf` of `/kysely` gives its Kysely instance.
 *
 * @example
 * const storage = await openStorageFromUrl(process.env.DATABASE_URL ?? "sqlite:./data/payments.sqlite")
 */
export const openStorageFromUrl = async (url: string, options: OpenStorageOptions = {}): Promise<Storage> => {
  const { setUp, onMigration } = options
  const location = parseStorageUrl(url)
  if (location.dialect === "postgres") {
    const { openPostgresStorage } = await loadPostgresStorage()
    return openPostgresStorage({
      connectionString: location.connectionString,
      ...(location.schema === undefined ? {} : { schema: location.schema }),
      ...(setUp === undefined ? {} : { setUp }),
      ...(onMigration === undefined ? {} : { onMigration }),
    })
  }
  const storage = await openSqliteStorage({
    filename: location.filename,
    ...(onMigration === undefined ? {} : { onMigration }),
  })
  try {
    await setUp?.(storage)
    return storage
  } catch (error) {
    await storage.close()
    throw error
  }
}

/**
 * Whether the storage a `DATABASE_URL` names is already there, without creating it: the SQLite
 * file exists (an in-memory one always counts), or the Postgres database (and schema) holds the
 * storage's migration table. For commands that read and must not leave an empty database behind.
 *
 * @example
 * if (!(await storageExists("sqlite:./data/payments.sqlite"))) console.error("no database yet")
 */
export const storageExists = async (url: string): Promise<boolean> => {
  const location = parseStorageUrl(url)
  if (location.dialect === "sqlite") return location.filename === ":memory:" || existsSync(resolve(location.filename))
  const { postgresStorageExists } = await loadPostgresStorage()
  return postgresStorageExists({
    connectionString: location.connectionString,
    ...(location.schema === undefined ? {} : { schema: location.schema }),
  })
}
