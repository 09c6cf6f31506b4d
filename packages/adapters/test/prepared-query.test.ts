import { brandId, type WorkspaceId } from "@payments-engine/core"
import { afterAll, describe, expect, it } from "vitest"
import type { KyselyStorage, StorageTables } from "../src/kysely.ts"
import { listOf, listValues, preparedQuery } from "../src/storage/prepared-query.ts"
import { readOnlyHandle } from "../src/storage/read-only.ts"
import { openTestPostgres, openTestSqlite, type TestStorages } from "../src/testing/index.ts"

const at = "2025-03-01T12:00:00.000Z"

const insertWorkspace = preparedQuery((db: KyselyStorage["db"], row: StorageTables["workspaces"]) =>
  db.insertInto("workspaces").values(row),
)
const findWorkspace = preparedQuery((db: KyselyStorage["db"], p: { readonly name: string }) =>
  db.selectFrom("workspaces").selectAll().where("name", "=", p.name),
)
const insertCompanyIfNew = preparedQuery((db: KyselyStorage["db"], row: StorageTables["companies"]) =>
  db
    .insertInto("companies")
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returning("id"),
)
/** A list of names: compiled once per length, each length's statement binding its own values. */
const findWorkspacesNamed = preparedQuery((db: KyselyStorage["db"], p: Record<string, string>) =>
  db.selectFrom("workspaces").select("name").where("name", "in", listOf("name", p)).orderBy("name"),
)
/** Two values, which a caller may give in either order. */
const findWorkspaceByIdAndName = preparedQuery(
  (db: KyselyStorage["db"], p: { readonly id: WorkspaceId; readonly name: string }) =>
    db.selectFrom("workspaces").select("name").where("id", "=", p.id).where("name", "=", p.name),
)
/** A constant ("api_client") beside the values: it must stay what it was compiled as. */
const findApiClients = preparedQuery((db: KyselyStorage["db"], p: { readonly workspaceId: WorkspaceId }) =>
  db.selectFrom("companies").select("id").where("workspace_id", "=", p.workspaceId).where("role", "=", "api_client"),
)

const company = (id: string, workspaceId: string, role: string, deletedAt: string | null) => ({
  id: brandId("cmp", id),
  workspace_id: brandId("ws", workspaceId),
  name: `Company ${id}`,
  country: "US",
  default_currency: "USD",
  role,
  created_at: at,
  updated_at: at,
  deleted_at: deletedAt,
})

const describePrepared = (source: TestStorages<string>) =>
  describe(`preparedQuery on ${source.kind}`, () => {
    afterAll(() => source.close())

    it("binds each call's own values, in and out of transactions, nulls included", async () => {
      const storage = await source.factory()
      for (const name of ["alpha", "beta", "gamma"]) {
        await insertWorkspace(storage.db, { id: brandId("ws", `ws_${name}`), name, created_at: at })
      }
      expect(await findWorkspace(storage.db, { name: "beta" })).toEqual([
        { id: "ws_beta", name: "beta", created_at: at },
      ])
      expect(await findWorkspace(storage.db, { name: "delta" })).toEqual([])

      await storage.db.transaction().execute(async (trx) => {
        expect(await insertCompanyIfNew(trx, company("cmp_1", "ws_alpha", "api_client", null))).toEqual([
          { id: "cmp_1" },
        ])
        expect(await insertCompanyIfNew(trx, company("cmp_1", "ws_alpha", "api_client", null))).toEqual([])
        await insertCompanyIfNew(trx, company("cmp_2", "ws_alpha", "platform", at))
        await insertCompanyIfNew(trx, company("cmp_3", "ws_beta", "api_client", null))
      })
      const stored = await storage.db
        .selectFrom("companies")
        .select(["id", "role", "deleted_at"])
        .orderBy("id")
        .execute()
      expect(stored).toEqual([
        { id: "cmp_1", role: "api_client", deleted_at: null },
        { id: "cmp_2", role: "platform", deleted_at: at },
        { id: "cmp_3", role: "api_client", deleted_at: null },
      ])
      expect(await findApiClients(storage.db, { workspaceId: brandId("ws", "ws_alpha") })).toEqual([{ id: "cmp_1" }])
      expect(await findApiClients(storage.db, { workspaceId: brandId("ws", "ws_beta") })).toEqual([{ id: "cmp_3" }])
    })

    it("rolls back with the transaction it ran in", async () => {
      const storage = await source.factory()
      await expect(
        storage.db.transaction().execute(async (trx) => {
          await insertWorkspace(trx, { id: brandId("ws", "ws_gone"), name: "gone", created_at: at })
          throw new Error("roll back")
        }),
      ).rejects.toThrow("roll back")
      expect(await findWorkspace(storage.db, { name: "gone" })).toEqual([])
    })

    it("refuses in a read a prepared write, even one compiled in a transaction before", async () => {
      const storage = await source.factory()
      await storage.db
        .transaction()
        .execute(async (trx) => insertWorkspace(trx, { id: brandId("ws", "ws_first"), name: "first", created_at: at }))
      const refused = storage.db.connection().execute(async (connection) =>
        insertWorkspace(readOnlyHandle(connection, undefined), {
          id: brandId("ws", "ws_read"),
          name: "read",
          created_at: at,
        }),
      )
      await expect(refused).rejects.toThrow(/must not write \(insert\)/)
      expect(await findWorkspace(storage.db, { name: "read" })).toEqual([])
    })

    it("binds by name whatever the number and the order of the values, from one call to the next", async () => {
      const storage = await source.factory()
      for (const name of ["alpha", "beta", "gamma"]) {
        await insertWorkspace(storage.db, { id: brandId("ws", `ws_${name}`), name, created_at: at })
      }
      const named = async (...names: Array<string>) =>
        (await findWorkspacesNamed(storage.db, listValues("name", names))).map((row) => row.name)
      expect(await named("beta")).toEqual(["beta"])
      expect(await named("gamma", "alpha")).toEqual(["alpha", "gamma"])
      expect(await named("beta", "gamma", "alpha")).toEqual(["alpha", "beta", "gamma"])
      expect(await named("delta", "beta")).toEqual(["beta"])
      expect(await named("alpha", "beta", "gamma")).toEqual(["alpha", "beta", "gamma"])

      const id = brandId("ws", "ws_beta")
      expect(await findWorkspaceByIdAndName(storage.db, { id, name: "beta" })).toEqual([{ name: "beta" }])
      expect(await findWorkspaceByIdAndName(storage.db, { name: "beta", id })).toEqual([{ name: "beta" }])
      expect(await findWorkspaceByIdAndName(storage.db, { name: "alpha", id })).toEqual([])
      expect(await findWorkspaceByIdAndName(storage.db, { id, name: "beta" })).toEqual([{ name: "beta" }])
    })
  })

describePrepared(openTestSqlite())
describePrepared(openTestPostgres())
