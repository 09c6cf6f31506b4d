import { JSONSchema, Schema } from "effect"
import { describe, expect, expectTypeOf, it } from "vitest"
import type { Engine } from "../engine.ts"
import type { LinkRequest } from "../ports/bank-link-provider.ts"
import type { Ids } from "../ports/ids.ts"
import type { PaymentSubmission } from "../ports/payment-provider.ts"
import type { BankAccountOwner, Repositories } from "../ports/storage/index.ts"
import type { Actor } from "../services/steps/actor.ts"
import { bankAccountOwner } from "./bank-account.ts"
import { Company } from "./company.ts"
import {
  BankAccountId,
  brandId,
  CompanyId,
  type EntityId,
  type IdOf,
  idSchemas,
  PaymentId,
  RecipientId,
  WorkspaceId,
} from "./ids.ts"
import type { JobPayload } from "./job-kinds.ts"

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
      // @ts-expect-error a bare string where a test clock expects its WorkspaceId
      void tx.testClocks.advance("ws_1", 1000)
      // @ts-expect-error a bare string where the job queue expects a WorkspaceId
      void tx.jobs.bringForward("ws_1", 1000)
    }
    expect(typeof typeOnly).toBe("function")
    expectTypeOf(recipient).not.toExtend<CompanyId>()
    expectTypeOf<Engine["companies"]["get"]>().parameter(1).toEqualTypeOf<CompanyId>()
  })

  it("reach the providers and the job handlers branded", () => {
    const payment = PaymentId.make("pay_1")
    const account = BankAccountId.make("ba_1")
    // @ts-expect-error a plain string as the payment a provider executes
    const unbranded: Pick<PaymentSubmission, "paymentId"> = { paymentId: "pay_1" }
    // @ts-expect-error a bank account's id where the linker expects the entity's
    const swapped: Pick<LinkRequest, "reference" | "entityId"> = { reference: account, entityId: account }
    expect([unbranded, swapped]).toHaveLength(2)
    expectTypeOf<PaymentSubmission["paymentId"]>().toEqualTypeOf<PaymentId>()
    expectTypeOf<LinkRequest["reference"]>().toEqualTypeOf<BankAccountId>()
    expectTypeOf<LinkRequest["entityId"]>().toEqualTypeOf<EntityId>()
    expectTypeOf<JobPayload<"execute_payment">>().toEqualTypeOf<{
      readonly payment_id: PaymentId
      readonly workspace_id: WorkspaceId
      readonly company_id?: CompanyId | undefined
    }>()
    expect(payment).toBe("pay_1")
  })

  it("pair a stored bank account's owner id with its owner type", () => {
    // @ts-expect-error a recipient's id under owner type Entity
    const mislabelled: BankAccountOwner = { owner_type: "Entity", owner_id: RecipientId.make("rcp_1") }
    expect(mislabelled.owner_type).toBe("Entity")
    expectTypeOf(bankAccountOwner("Entity", "ent_1")).toEqualTypeOf<BankAccountOwner>()
    expect(bankAccountOwner("Entity", "ent_1")).toEqual({ owner_type: "Entity", owner_id: "ent_1" })
    expect(bankAccountOwner("Counterparty", "rcp_1")).toEqual({ owner_type: "Counterparty", owner_id: "rcp_1" })
    expect(() => bankAccountOwner("Team", "ent_1")).toThrow()
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
      "pb",
      "job",
      "evt",
      "app",
      "hpt",
      "we",
      "wes",
      "whd",
      "wer",
      "onb",
      "obd",
      "bid",
      "oad",
      "per",
      "pid",
      "att",
      "tdc",
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
