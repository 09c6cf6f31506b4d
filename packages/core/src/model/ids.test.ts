import { JSONSchema, Schema } from "effect"
import { describe, expect, expectTypeOf, it } from "vitest"
import type { Engine } from "../engine.ts"
import type { Ids } from "../ports/ids.ts"
import type { Repositories } from "../ports/storage/index.ts"
import type { Actor } from "../services/actor.ts"
import { Company } from "./company.ts"
import { brandId, CompanyId, type IdOf, idSchemas, RecipientId, WorkspaceId } from "./ids.ts"

describe("branded ids", () => {
  it("refuse an id of one kind where another kind is expected, at compile time", () => {
    const recipient = RecipientId.make("rcp_1")
    const workspace = WorkspaceId.make("ws_1")
    // Never called: the lines below are checked by the compiler (`tsc -b`), not run.
    const typeOnly = (engine: Engine, tx: Repositories, actor: Actor) => {
      // @ts-expect-error a RecipientId where the engine expects a CompanyId
      void engine.companies.get(actor, recipient)
      // @ts-expect-error a bare string where the engine expects a CompanyId
      void engine.recipients.get(actor, "cmp_1", recipient)
      // @ts-expect-error a CompanyId and a RecipientId swapped in a storage port call
      void tx.recipients.findActive(recipient, CompanyId.make("cmp_1"))
      // @ts-expect-error a WorkspaceId is no CompanyId either
      void tx.companies.find(workspace, workspace)
    }
    expect(typeof typeOnly).toBe("function")
    expectTypeOf(recipient).not.toExtend<CompanyId>()
    expectTypeOf<Engine["companies"]["get"]>().parameter(1).toEqualTypeOf<CompanyId>()
  })

  it("are what Ids.next returns for each prefix", () => {
    expectTypeOf<ReturnType<Ids["next"]>>().toExtend<string>()
    expectTypeOf<IdOf<"cmp">>().toEqualTypeOf<CompanyId>()
    expectTypeOf<IdOf<"rcp">>().toEqualTypeOf<RecipientId>()
    const ids: Ids = { next: (prefix) => brandId(prefix, `${prefix}_1`) }
    expectTypeOf(ids.next("cmp")).toEqualTypeOf<CompanyId>()
    expect(ids.next("cmp")).toBe("cmp_1")
    expect(Object.keys(idSchemas)).toEqual([
      "ws",
      "key",
      "cmp",
      "ent",
      "rcp",
      "ba",
      "ad",
      "rd",
      "pp",
      "qt",
      "pay",
      "job",
      "evt",
      "app",
    ])
  })

  it("leave the JSON and its schema a plain string", () => {
    expect(JSONSchema.make(CompanyId)).toEqual(JSONSchema.make(Schema.String))
    const company = {
      id: CompanyId.make("cmp_1"),
      name: "Acme",
      country: "US",
      default_currency: "USD",
      created_at: "2026-01-01T00:00:00.000Z",
      updated_at: "2026-01-01T00:00:00.000Z",
    }
    expect(JSON.stringify(Schema.encodeSync(Company)(company))).toBe(JSON.stringify({ ...company, id: "cmp_1" }))
  })
})
