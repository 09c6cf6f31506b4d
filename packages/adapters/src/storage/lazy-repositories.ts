import type { Kysely } from "kysely"
import type { StorageTables } from "./storage-tables.ts"

/** How to build each repository of `R` over one Kysely handle (the database or a transaction). */
export type RepositoryFactories<R> = { readonly [K in keyof R]: (db: Kysely<StorageTables>) => R[K] }

const handle = Symbol("kysely handle")

/**
 * Turns repository factories into one function of a Kysely handle that returns the repositories,
 * each built when it is first read. A transaction opens with every repository available, yet
 * builds only the few it uses: building all of them (some sixty functions) cost about as much
 * as running three of the queries of a payment. The repositories are own, enumerable
 * properties, so `{ ...tx, payments: wrapped }` still copies every one.
 *
 * @example
 * const repositoriesOver = lazyRepositories({ quotes: (db) => ({ find: (id: string) => ... }) })
 * await db.transaction().execute((trx) => repositoriesOver(trx).quotes.find("qt_1"))
 */
export const lazyRepositories = <R extends object>(
  factories: RepositoryFactories<R>,
): ((db: Kysely<StorageTables>) => R) => {
  type Holder = { readonly [handle]: Kysely<StorageTables> }
  const descriptors: PropertyDescriptorMap = {}
  for (const key of Object.keys(factories) as Array<keyof R & string>) {
    descriptors[key] = {
      configurable: true,
      enumerable: true,
      get(this: Holder) {
        const repository = factories[key](this[handle])
        Object.defineProperty(this, key, { value: repository, enumerable: true })
        return repository
      },
    }
  }
  return (db) => {
    const repositories = Object.defineProperty({}, handle, { value: db })
    return Object.defineProperties(repositories, descriptors) as R
  }
}
