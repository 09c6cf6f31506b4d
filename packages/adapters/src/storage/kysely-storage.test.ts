import type { Storage } from "@payments-engine/core"
import { describe, expect, it } from "vitest"
import { kyselyStorageOf } from "./kysely-storage.ts"
import { openSqliteStorage } from "./sqlite/sqlite-storage.ts"

describe("kyselyStorageOf", () => {
  it("gives the Kysely instance of a storage the opener typed as the port", async () => {
    const storage = await openSqliteStorage({ filename: ":memory:" })
    try {
      const view = kyselyStorageOf(storage)
      expect(view).toBe(storage)
      expect(view.dialect.name).toBe("sqlite")
      expect(await view.db.selectFrom("companies").select("id").execute()).toEqual([])
    } finally {
      await storage.close()
    }
  })

  it("refuses a storage it did not make, even one shaped like its own", () => {
    const lookalike = {
      db: {},
      dialect: {},
      capabilities: { multiProcess: false, concurrentTransactions: false },
      transaction: async () => {
        throw new Error("not reached")
      },
      createJobRunner: () => {
        throw new Error("not reached")
      },
      close: async () => {},
    } as unknown as Storage
    expect(() => kyselyStorageOf(lookalike)).toThrow(
      new TypeError("kyselyStorageOf: this storage was not made by createKyselyStorage"),
    )
  })
})
