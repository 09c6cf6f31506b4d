import type { Kysely } from "kysely"
import type { StorageTables } from "./storage-tables.ts"

/** How to build each repository of `R` over one Kysely handle (the database or a transaction). */
export type RepositoryFactories<R> = { readonly [K in keyof R]: (db: Kysely<StorageTables>) => R[K] }

/**
 * Turns repository factories into one function of a Kysely handle that returns the repositories,
 * each built when it is first read. A transaction opens with every repository available, yet
 * builds only the few it uses: building all of them (some sixty functions) cost about as much
 * as running three of the queries of a payment.
 *
 * The repositories are getters of one class made here, each keeping what it built in a slot of
 * the instance, so that every transaction's object has the same shape. Own accessors redefined
 * as data properties on first read (the earlier shape) turned each transaction's object into a
 * dictionary, which cost a quote about a tenth of its time. Being inherited, the repositories
 * are not copied by `{ ...tx }`: replace one through a Proxy (the contract suite's
 * `withRepository` does).
 *
 * @example
 * const repositoriesOver = lazyRepositories({
 *   quotes: (db) => ({ find: (id: QuoteId) => db.selectFrom("quotes").selectAll().where("id", "=", id).executeTakeFirst() }),
 * })
 * declare const quoteId: QuoteId
 * await db.transaction().execute((trx) => repositoriesOver(trx).quotes.find(quoteId))
 */
export const lazyRepositories = <R extends object>(
  factories: RepositoryFactories<R>,
): ((db: Kysely<StorageTables>) => R) => {
  const names = Object.keys(factories) as Array<keyof R & string>
  class TransactionRepositories {
    readonly built: Array<unknown> = new Array(names.length)
    constructor(readonly db: Kysely<StorageTables>) {}
  }
  names.forEach((name, slot) => {
    const factory = factories[name]
    Object.defineProperty(TransactionRepositories.prototype, name, {
      enumerable: true,
      get(this: TransactionRepositories) {
        const built = this.built[slot]
        if (built !== undefined) return built
        const repository = factory(this.db)
        this.built[slot] = repository
        return repository
      },
    })
  })
  return (db) => new TransactionRepositories(db) as unknown as R
}
