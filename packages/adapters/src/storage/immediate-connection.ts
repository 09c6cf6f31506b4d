import type { Awaitable } from "@payments-engine/core"
import type { Kysely } from "kysely"
import { isThenable } from "./awaitable.ts"
import type { DirectStatements } from "./direct-statements.ts"
import type { StorageTables } from "./storage-tables.ts"

/**
 * The one connection of a database whose statements answer at once (better-sqlite3's), which a
 * storage takes itself: its transactions and reads begin, run and end on it without a promise in
 * between, so that work whose every statement answered at once is done before the call returns.
 * Kysely's own queries take the same connection through the dialect's driver, in turn.
 */
export interface ImmediateConnection {
  readonly lock: {
    /** Takes the connection if it is free; false when it is held. */
    tryTake(): boolean
    /** Takes it once the callers that asked before have given it back. */
    take(): Promise<void>
    /** Gives it back. */
    give(): void
  }
  readonly statements: DirectStatements
  begin(): void
  commit(): void
  /** Rolls back the open transaction, if there is one. */
  rollback(): void
  /** A handle on `db` whose queries run on this connection without taking it: for its holder only. */
  handleOn(db: Kysely<StorageTables>): Kysely<StorageTables>
}

/**
 * Runs `work` while holding `connection`, in a transaction when `transactional`: the connection is
 * taken at once when free, else in turn; `work` answering at once is committed (or, throwing,
 * rolled back) at once, and only a promise of it is waited for. `ended` runs after the connection
 * is given back, committed or not.
 */
export const holding = <T>(
  connection: ImmediateConnection,
  transactional: boolean,
  work: () => Awaitable<T>,
  ended: (committed: boolean) => void,
): Promise<T> => {
  const run = (): Promise<T> => {
    const finish = (value: T): T => {
      try {
        if (transactional) connection.commit()
      } catch (error) {
        fail()
        throw error
      }
      connection.lock.give()
      ended(true)
      return value
    }
    const fail = () => {
      try {
        if (transactional) connection.rollback()
      } finally {
        connection.lock.give()
        ended(false)
      }
    }
    let answer: Awaitable<T>
    try {
      if (transactional) connection.begin()
    } catch (error) {
      connection.lock.give()
      return Promise.reject(error)
    }
    try {
      answer = work()
    } catch (error) {
      fail()
      return Promise.reject(error)
    }
    if (!isThenable(answer)) {
      try {
        return Promise.resolve(finish(answer))
      } catch (error) {
        return Promise.reject(error)
      }
    }
    return Promise.resolve(answer).then(finish, (error: unknown) => {
      fail()
      throw error
    })
  }
  return connection.lock.tryTake() ? run() : connection.lock.take().then(run)
}
