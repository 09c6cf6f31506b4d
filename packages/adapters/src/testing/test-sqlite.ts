import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type KyselyStorage, kyselyStorageOf } from "../storage/kysely-storage.ts"
import { openSqliteStorage } from "../storage/sqlite/sqlite-storage.ts"
import { storageTracker, type TestStorages } from "./test-storages.ts"

/** Options of {@link openTestSqlite}. */
export interface TestSqliteOptions {
  /** Each storage on its own file in a temporary folder (removed by `close`); in memory when false. */
  readonly file?: boolean
}

/** SQLite storages for tests, in memory or on temporary files. */
export type TestSqlite = TestStorages<"memory" | "file">

/**
 * Isolated SQLite storages for tests: each `factory()` call opens a new database, in memory or
 * on a new file in a temporary folder that `close()` removes. `reopen` works for files only.
 *
 * @example
 * const sqlite = openTestSqlite({ file: true })
 * afterAll(sqlite.close)
 * const storage = await sqlite.factory()
 */
export const openTestSqlite = (options: TestSqliteOptions = {}): TestSqlite => {
  const tracker = storageTracker()
  const files = new WeakMap<KyselyStorage, string>()
  let folder: string | undefined
  let count = 0
  let closed = false

  const open = async (filename: string) => {
    if (closed) throw new Error("openTestSqlite: the source is closed")
    const storage = tracker.track(kyselyStorageOf(await openSqliteStorage({ filename })))
    files.set(storage, filename)
    return storage
  }

  if (!options.file) {
    return {
      kind: "memory",
      factory: () => open(":memory:"),
      reopen: () => Promise.reject(new Error("openTestSqlite: an in-memory database cannot be reopened")),
      close: async () => {
        closed = true
        await tracker.closeAll()
      },
    }
  }

  return {
    kind: "file",
    factory: () => {
      folder ??= mkdtempSync(join(tmpdir(), "payments-engine-sqlite-"))
      count += 1
      return open(join(folder, `storage-${count}.sqlite`))
    },
    reopen: (storage) => {
      const filename = files.get(storage)
      if (filename === undefined) return Promise.reject(new Error("openTestSqlite: not a storage of this source"))
      return open(filename)
    },
    close: async () => {
      closed = true
      await tracker.closeAll()
      if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
    },
  }
}
