import { resolve } from "node:path"
import type { StorageLocation } from "@payments-engine/adapters"

/**
 * Where a database is, for an operator: a SQLite file's absolute path, or a Postgres server's
 * host, port, database and schema, with its user but never its password.
 *
 * @example
 * databaseLabel(parseStorageUrl("sqlite:./data/payments.sqlite")) // "SQLite /srv/app/data/payments.sqlite"
 * databaseLabel(parseStorageUrl("postgres://app:pw@db:5432/pay")) // "Postgres app@db:5432/pay"
 */
export const databaseLabel = (location: StorageLocation): string => {
  if (location.dialect === "sqlite") {
    return location.filename === ":memory:" ? "SQLite in memory" : `SQLite ${resolve(location.filename)}`
  }
  const url = new URL(location.connectionString)
  const user = url.username === "" ? "" : `${decodeURIComponent(url.username)}@`
  const schema = location.schema === undefined ? "" : ` (schema ${location.schema})`
  return `Postgres ${user}${url.hostname}:${url.port || "5432"}${url.pathname}${schema}`
}
