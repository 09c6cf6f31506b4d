import type { KyselyStorage } from "../storage/kysely-storage.ts"

/**
 * A source of isolated storages for tests: `factory` gives a fresh, migrated storage each call,
 * `reopen` a second storage on the same database as an earlier one (as a restarted process
 * would), `close` closes whatever is still open and removes what the source created.
 *
 * @example
 * declare const kyselyContractReader: (storage: KyselyStorage) => ContractReader // see the contract suite
 * const sqlite = openTestSqlite({ file: true })
 * runContractSuite({ name: "kysely/sqlite-file", factory: sqlite.factory, reader: kyselyContractReader, teardown: sqlite.close })
 */
export interface TestStorages<Kind extends string> {
  /** What the storages run on. */
  readonly kind: Kind
  /** A fresh, migrated storage, isolated from every other one this source made. */
  readonly factory: () => Promise<KyselyStorage>
  /** Another storage on the database of `storage`, which came from this source's `factory`. */
  readonly reopen: (storage: KyselyStorage) => Promise<KyselyStorage>
  /** Closes the storages still open and removes the databases, files or schemas made. */
  readonly close: () => Promise<void>
}

/**
 * Remembers every storage a test source opened, so its `close()` also closes those a test forgot
 * (closing a storage twice is harmless).
 */
export const storageTracker = () => {
  const opened = new Set<KyselyStorage>()
  return {
    track: (storage: KyselyStorage): KyselyStorage => {
      opened.add(storage)
      return storage
    },
    closeAll: async (): Promise<void> => {
      const all = [...opened]
      opened.clear()
      await Promise.all(all.map((storage) => storage.close()))
    },
  }
}
