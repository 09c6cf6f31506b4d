import { Effect } from "effect"
import { Invalid } from "../errors.ts"
import type { ProfileInUse } from "../model/types/bank-account.ts"
import type { PaymentProfileId } from "../model/types/ids.ts"

/** Why a pair of profiles cannot be quoted: the field to blame and the message for the client. */
export interface ProfileProblem {
  readonly field: "from_profile_id" | "to_profile_id"
  readonly message: string
}

/** Profiles a quote may use, or the first reason it may not. */
export type QuoteProfilesVerdict =
  | { readonly ok: true; readonly from: ProfileInUse; readonly to: ProfileInUse }
  | { readonly ok: false; readonly problem: ProfileProblem }

const fromProblem = (message: string): QuoteProfilesVerdict => ({
  ok: false,
  problem: { field: "from_profile_id", message },
})
const toProblem = (message: string): QuoteProfilesVerdict => ({
  ok: false,
  problem: { field: "to_profile_id", message },
})

/**
 * Whether a quote may move money between these profiles, or the first reason it may not (DECISIONS,
 * "Profile use"): `from` must be an active debit or balance profile of a live entity of the
 * company, a debit profile with a bank-link connection; `to` an active credit profile of a live
 * recipient of the company. The source side is checked first. Undefined profiles were not found
 * in the company.
 *
 * @example
 * declare const to: ProfileInUse
 * checkProfilesForQuote(undefined, to)
 * // { ok: false, problem: { field: "from_profile_id", message: "From profile not found" } }
 */
export const checkProfilesForQuote = (
  from: ProfileInUse | undefined,
  to: ProfileInUse | undefined,
): QuoteProfilesVerdict => {
  if (from === undefined) return fromProblem("From profile not found")
  const usage = from.profile.usage_type
  if (from.owner_type !== "Entity" || (usage !== "debit" && usage !== "balance")) {
    return fromProblem("From profile must be a debit or balance profile of an entity of this company")
  }
  if (from.profile.status !== "active") return fromProblem("From profile is not active")
  if (usage === "debit" && from.provider_connection_id === null) {
    return fromProblem("From profile does not have any connections")
  }
  if (!from.owner_live) return fromProblem("From profile's entity has been deleted")
  if (to === undefined) return toProblem("To profile not found")
  if (to.owner_type !== "Counterparty" || to.profile.usage_type !== "credit") {
    return toProblem("To profile must be a credit profile of a recipient of this company")
  }
  if (to.profile.status !== "active") return toProblem("To profile is not active")
  if (!to.owner_live) return toProblem("To profile's recipient has been deleted")
  return { ok: true, from, to }
}

/**
 * The profiles of a quote among those read for it (its company's, in use), checked by
 * {@link checkProfilesForQuote}; also says whether the paying entity has an active integration.
 */
export const checkQuoteProfiles = (
  found: ReadonlyArray<ProfileInUse>,
  fromId: PaymentProfileId,
  toId: PaymentProfileId,
): Effect.Effect<
  { readonly from: ProfileInUse["profile"]; readonly to: ProfileInUse["profile"]; readonly integrationActive: boolean },
  Invalid
> => {
  const verdict = checkProfilesForQuote(
    found.find((use) => use.profile.id === fromId),
    found.find((use) => use.profile.id === toId),
  )
  if (!verdict.ok) return Effect.fail(Invalid.rule(verdict.problem.field, verdict.problem.message))
  const { from, to } = verdict
  return Effect.succeed({ from: from.profile, to: to.profile, integrationActive: from.integration_active })
}
