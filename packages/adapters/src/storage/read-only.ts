import type { JobRepository } from "@payments-engine/core"
import { CompiledQuery, type Kysely, type KyselyPlugin } from "kysely"
import { type DirectStatements, runDirectly } from "./direct-statements.ts"
import type { StorageTables } from "./storage-tables.ts"

const refusal = (what: string) =>
  new Error(`storage.read: its work must not write (${what}); run work that writes in storage.transaction`)

/**
 * Refuses every query Kysely builds but a select. A raw `sql` query passes: its text is not
 * looked into.
 */
const selectsOnly: KyselyPlugin = {
  transformQuery: ({ node }) => {
    if (node.kind !== "SelectQueryNode" && node.kind !== "RawNode") throw refusal(node.kind)
    return node
  },
  transformResult: async ({ result }) => result,
}

/**
 * The jobs of a read: every method rejects, so a job queued where nothing commits it fails
 * loudly instead of vanishing.
 */
export const refusingJobs: JobRepository = {
  enqueue: async () => {
    throw refusal("jobs.enqueue")
  },
  bringForward: async () => {
    throw refusal("jobs.bringForward")
  },
  removeUnstarted: async () => {
    throw refusal("jobs.removeUnstarted")
  },
}

/** Prepared statements through Kysely, for a connection of a dialect that has no direct ones. */
const throughKysely = (connection: Kysely<StorageTables>): DirectStatements => ({
  rows: async (statement, parameters) => {
    const { rows } = await connection.executeQuery(CompiledQuery.raw(statement.sql, [...parameters]))
    return statement.arrays ? rows.map((row) => Object.values(row as object)) : rows
  },
})

/**
 * A handle on `connection` (a Kysely handle bound to one connection) for a read's repositories:
 * it refuses writes, those Kysely builds and the prepared ones, and runs prepared statements on
 * `statements` when the connection has them. Call `stopRunningDirectly` on it before the
 * connection is given back.
 *
 * @example
 * declare const row: CompanyRecord
 * await db.connection().execute(async (connection) => {
 *   const reader = readOnlyHandle(connection, undefined)
 *   await reader.insertInto("companies").values(row).execute() // rejects: a read must not write
 * })
 */
export const readOnlyHandle = (
  connection: Kysely<StorageTables>,
  statements: DirectStatements | undefined,
): Kysely<StorageTables> => {
  const reader = connection.withPlugin(selectsOnly)
  const through = statements ?? throughKysely(connection)
  runDirectly(reader, {
    rows: (statement, parameters) => {
      if (statement.writes) throw refusal(statement.sql.slice(0, statement.sql.indexOf(" ")))
      return through.rows(statement, parameters)
    },
  })
  return reader
}
