import type BetterSqlite3 from "better-sqlite3"
import { type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, SelectQueryNode } from "kysely"
import type { DirectStatements } from "../direct-statements.ts"

/** How many distinct statements stay prepared; the engine uses far fewer. */
const statementCacheSize = 500

/**
 * `prepare` remembered per SQL text: Kysely prepares every query it runs, and preparing costs as
 * much as running a small one. Oldest statements are dropped past {@link statementCacheSize}.
 */
const statementCache = (prepare: (source: string) => BetterSqlite3.Statement) => {
  const statements = new Map<string, BetterSqlite3.Statement>()
  return (source: string): BetterSqlite3.Statement => {
    const cached = statements.get(source)
    if (cached !== undefined) return cached
    const statement = prepare(source)
    if (statements.size >= statementCacheSize) statements.delete(statements.keys().next().value as string)
    statements.set(source, statement)
    return statement
  }
}

/**
 * The one connection of a SQLite database, held by one caller at a time, in the order they asked:
 * Kysely's queries and transactions take it through the driver, and the storage takes it itself,
 * at once when it is free (see {@link SqliteConnection}).
 */
export class ConnectionLock {
  #held = false
  readonly #waiting: Array<() => void> = []

  /** Takes the connection if it is free; false when it is held. */
  tryTake(): boolean {
    if (this.#held) return false
    this.#held = true
    return true
  }

  /** Takes the connection once every caller that asked before has given it back. */
  take(): Promise<void> {
    if (this.tryTake()) return Promise.resolve()
    return new Promise((taken) => this.#waiting.push(taken))
  }

  /** Gives the connection back: to the caller that has waited longest, if any. */
  give(): void {
    const next = this.#waiting.shift()
    if (next === undefined) this.#held = false
    else next()
  }
}

/**
 * A better-sqlite3 database as one connection whose statements answer at once: Kysely's
 * `DatabaseConnection` for the queries it builds, and the storage's own access, which begins,
 * commits and runs prepared statements without a promise in between.
 */
export class SqliteConnection implements DatabaseConnection {
  readonly lock = new ConnectionLock()
  readonly #database: BetterSqlite3.Database
  readonly #prepare: (source: string) => BetterSqlite3.Statement
  /** The same, in better-sqlite3's raw mode: rows as arrays. */
  readonly #prepareRaw: (source: string) => BetterSqlite3.Statement
  readonly #begin: BetterSqlite3.Statement
  readonly #commit: BetterSqlite3.Statement
  readonly #rollback: BetterSqlite3.Statement

  constructor(database: BetterSqlite3.Database) {
    this.#database = database
    this.#prepare = statementCache((source) => database.prepare(source))
    this.#prepareRaw = statementCache((source) => database.prepare(source).raw(true))
    // `BEGIN IMMEDIATE`: a transaction takes the write lock up front, so two connections on one
    // file wait for each other (`busy_timeout`) instead of failing when a reader turns writer.
    this.#begin = database.prepare("begin immediate")
    this.#commit = database.prepare("commit")
    this.#rollback = database.prepare("rollback")
  }

  /** Prepared statements run on the database, as {@link executeQuery} runs a query, rows only. */
  readonly statements: DirectStatements = {
    rows: (statement, parameters) => {
      if (statement.arrays) return this.#prepareRaw(statement.sql).all(parameters as unknown[])
      const prepared = this.#prepare(statement.sql)
      if (prepared.reader) return prepared.all(parameters as unknown[])
      prepared.run(parameters as unknown[])
      return []
    },
  }

  begin(): void {
    this.#begin.run()
  }

  commit(): void {
    this.#commit.run()
  }

  /** Rolls back the open transaction, if SQLite has not already (it ends some failed ones itself). */
  rollback(): void {
    if (this.#database.inTransaction) this.#rollback.run()
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiledQuery
    const statement = this.#prepare(sql)
    if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as R[] })
    const { changes, lastInsertRowid } = statement.run(parameters)
    return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] })
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { sql, parameters, query } = compiledQuery
    if (!SelectQueryNode.is(query)) throw new Error("the SQLite driver streams select queries only")
    for (const row of this.#prepare(sql).iterate(parameters)) yield { rows: [row as R] }
  }
}

/**
 * Kysely's driver over the {@link SqliteConnection}: a query or a transaction of Kysely takes the
 * connection's lock, as Kysely's own SQLite driver takes its mutex. No savepoints: the engine
 * nests no transactions.
 */
export class SqliteStorageDriver implements Driver {
  readonly #connection: SqliteConnection
  readonly #database: BetterSqlite3.Database

  constructor(database: BetterSqlite3.Database, connection: SqliteConnection) {
    this.#database = database
    this.#connection = connection
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#connection.lock.take()
    return this.#connection
  }

  async beginTransaction(): Promise<void> {
    this.#connection.begin()
  }

  async commitTransaction(): Promise<void> {
    this.#connection.commit()
  }

  async rollbackTransaction(): Promise<void> {
    this.#connection.rollback()
  }

  async releaseConnection(): Promise<void> {
    this.#connection.lock.give()
  }

  async destroy(): Promise<void> {
    this.#database.close()
  }
}
