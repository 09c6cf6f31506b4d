import { describe, expect, it } from "vitest"
import { CompanyId as CompanyIdSchema, RecipientId as RecipientIdSchema } from "../ids.ts"
import { CompanyId, RecipientId } from "./ids.ts"

describe("the main entry's ids", () => {
  it("brand a string as the id Schemas' make does", () => {
    expect(CompanyId.make("cmp_1")).toBe(CompanyIdSchema.make("cmp_1"))
    expect(RecipientId.make("rcp_1")).toBe(RecipientIdSchema.make("rcp_1"))
  })

  it("refuse what is not a string, as the id Schemas' make does", () => {
    expect(() => CompanyId.make(42 as unknown as string)).toThrow(
      new TypeError("CompanyId.make: an id is a string, got number"),
    )
    expect(() => CompanyIdSchema.make(42 as unknown as string)).toThrow()
  })
})
