import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BankAccountId, CompanyId, EntityId, PaymentProfileId, RecipientId } from "../model/ids.ts"
import type { BankAccountOwner, OwnerType, ProfileInUse } from "../ports/storage/index.ts"
import { checkProfilesForQuote } from "./quote-profiles.ts"

const at = "2030-01-01T00:00:00.000Z"

/** A profile in use; its owner is entity `ent_1`, or recipient `rcp_1` for `owner_type: "Counterparty"`. */
const use = (
  id: string,
  overrides: Partial<Omit<ProfileInUse, keyof BankAccountOwner>> &
    Partial<ProfileInUse["profile"]> & { readonly owner_type?: OwnerType } = {},
): ProfileInUse => {
  const { owner_type, provider_connection_id, provider_beneficiary_id, owner_live, integration_active } = overrides
  return {
    profile: {
      id: PaymentProfileId.make(id),
      bank_account_id: BankAccountId.make(`ba_${id}`),
      company_id: CompanyId.make("cmp_1"),
      status: overrides.status ?? "active",
      payment_method: "ach",
      currency: "USD",
      usage_type: overrides.usage_type ?? "debit",
      created_at: at,
      updated_at: at,
    },
    ...(owner_type === "Counterparty"
      ? { owner_type, owner_id: RecipientId.make("rcp_1") }
      : { owner_type: "Entity", owner_id: EntityId.make("ent_1") }),
    provider_connection_id: provider_connection_id === undefined ? "conn_1" : provider_connection_id,
    provider_beneficiary_id: provider_beneficiary_id ?? null,
    owner_live: owner_live ?? true,
    integration_active: integration_active ?? false,
  }
}

const debit = use("pp_from")
const credit = use("pp_to", { owner_type: "Counterparty", usage_type: "credit", provider_connection_id: null })

const problemOf = (from: ProfileInUse | undefined, to: ProfileInUse | undefined) => {
  const verdict = checkProfilesForQuote(from, to)
  return verdict.ok ? undefined : verdict.problem
}

describe("checkProfilesForQuote", () => {
  it("accepts an active debit or balance profile of a live entity paying an active credit profile of a live recipient", () => {
    expect(checkProfilesForQuote(debit, credit)).toEqual({ ok: true, from: debit, to: credit })
    const balance = use("pp_balance", { usage_type: "balance", provider_connection_id: null })
    expect(checkProfilesForQuote(balance, credit).ok).toBe(true)
  })

  it("names the field and the message of DECISIONS for each way a profile is unusable", () => {
    const from = (message: string) => ({ field: "from_profile_id", message })
    const to = (message: string) => ({ field: "to_profile_id", message })
    const sourceRule = "From profile must be a debit or balance profile of an entity of this company"
    const targetRule = "To profile must be a credit profile of a recipient of this company"
    expect(problemOf(undefined, credit)).toEqual(from("From profile not found"))
    expect(problemOf(credit, credit)).toEqual(from(sourceRule))
    expect(problemOf(use("pp_x", { usage_type: "credit" }), credit)).toEqual(from(sourceRule))
    expect(problemOf(use("pp_x", { status: "inactive" }), credit)).toEqual(from("From profile is not active"))
    expect(problemOf(use("pp_x", { provider_connection_id: null }), credit)).toEqual(
      from("From profile does not have any connections"),
    )
    expect(problemOf(use("pp_x", { owner_live: false }), credit)).toEqual(
      from("From profile's entity has been deleted"),
    )
    expect(problemOf(debit, undefined)).toEqual(to("To profile not found"))
    expect(problemOf(debit, debit)).toEqual(to(targetRule))
    expect(problemOf(debit, { ...credit, profile: { ...credit.profile, status: "draft" } })).toEqual(
      to("To profile is not active"),
    )
    expect(problemOf(debit, { ...credit, owner_live: false })).toEqual(to("To profile's recipient has been deleted"))
  })

  it("accepts exactly the pairs whose every side is usable, and blames the source first", () => {
    const side = fc.option(
      fc.record({
        owner_type: fc.constantFrom("Entity", "Counterparty"),
        usage_type: fc.constantFrom("debit", "balance", "credit", "internal_account"),
        status: fc.constantFrom("active", "inactive", "draft", "failed"),
        provider_connection_id: fc.option(fc.constant("conn_1"), { nil: null }),
        owner_live: fc.boolean(),
      }),
      { nil: undefined },
    )
    fc.assert(
      fc.property(side, side, (fromFields, toFields) => {
        const from = fromFields && use("pp_from", fromFields)
        const to = toFields && use("pp_to", toFields)
        const sourceUsable =
          fromFields !== undefined &&
          fromFields.owner_type === "Entity" &&
          (fromFields.usage_type === "balance" ||
            (fromFields.usage_type === "debit" && fromFields.provider_connection_id !== null)) &&
          fromFields.status === "active" &&
          fromFields.owner_live
        const targetUsable =
          toFields !== undefined &&
          toFields.owner_type === "Counterparty" &&
          toFields.usage_type === "credit" &&
          toFields.status === "active" &&
          toFields.owner_live
        const verdict = checkProfilesForQuote(from, to)
        expect(verdict.ok).toBe(sourceUsable && targetUsable)
        if (!verdict.ok) expect(verdict.problem.field).toBe(sourceUsable ? "to_profile_id" : "from_profile_id")
      }),
    )
  })
})
