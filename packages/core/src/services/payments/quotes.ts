import { Effect } from "effect"
import { type Forbidden, Invalid, type NotFound, type ProviderFailure } from "../../errors.ts"
import type { CompanyId } from "../../model/ids.ts"
import { type Quote, type QuoteCreateBody, QuoteFields, toQuote } from "../../model/quote.ts"
import { decimal } from "../../money/decimal.ts"
import type { Clock } from "../../ports/clock.ts"
import { parseInstructedAmount } from "../../rules/quote-pricing.ts"
import { checkQuoteProfiles } from "../../rules/quote-profiles.ts"
import type { Actor } from "../steps/actor.ts"
import { decodeWrapped } from "../steps/decode-input.ts"
import { companyNotFound } from "../steps/lookups.ts"
import { pricedQuote, providerMidRate } from "../steps/quote-pricing.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inTransaction } from "../steps/transaction.ts"
import { writeAccess } from "../steps/use-case.ts"
import { workspaceClock } from "../steps/workspace-clock.ts"

const invalid = (field: string, message: string) => Effect.fail(Invalid.rule(field, message))

/** A clock stopped at `ms`: the time a quote was priced at, carried between its transactions as a number. */
const fixedClock = (ms: number): Clock => ({ now: () => new Date(ms) })

/** Use cases of quotes. */
export const makeQuotes = (ports: ServicePorts) => {
  return {
    /**
     * Prices a transfer between two profiles (net or gross, same or cross currency) and keeps the
     * price for 15 minutes. The FX rate is asked of the provider outside any transaction.
     */
    create: (
      actor: Actor,
      companyId: CompanyId,
      body: QuoteCreateBody,
    ): Effect.Effect<Quote, Invalid | Forbidden | NotFound | ProviderFailure> =>
      Effect.gen(function* () {
        const input = yield* decodeWrapped("quote", QuoteFields, body, "Quote is required")
        // Same-currency quotes are read, priced and stored in one transaction; a cross-currency
        // quote asks the provider for its rate between two, never inside one. Each transaction
        // returns plain data and the stored row (a keyed request journals and replays them), and
        // the answer is built from that row only.
        // The company and the profiles are read in one statement; a company the actor cannot see,
        // or a deleted one, is `not_found` on `company_id` before the profiles are looked at.
        const checked = yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const found = yield* tx.companies.findWithProfilesInUse(actor.workspaceId, companyId, [
              input.from_profile_id,
              input.to_profile_id,
            ])
            if (found === undefined || found.company.deleted_at !== null) {
              return yield* Effect.fail(companyNotFound("company_id"))
            }
            const { company } = found
            // The workspace's clock as read here also stamps a quote priced after this transaction.
            const clock = yield* workspaceClock(ports, tx, actor.workspaceId)
            const { from, to, integrationActive } = yield* checkQuoteProfiles(
              found.profiles,
              input.from_profile_id,
              input.to_profile_id,
            )
            const currency = input.instructed_amount.currency.toUpperCase()
            if (currency !== from.currency && currency !== to.currency) {
              return yield* invalid("instructed_amount", "Currency must match the source or target profile")
            }
            const amount = yield* parseInstructedAmount(input.instructed_amount.amount, currency)
            const request = { companyId: company.id, from, to, amount, currency, strategy: input.fee_strategy ?? "net" }
            const pricedAt = clock.now().getTime()
            if (from.currency !== to.currency) {
              if (!integrationActive)
                return yield* invalid("base", "no active payment-provider account found for the entity")
              return { request, pricedAt, stored: undefined }
            }
            const row = yield* pricedQuote(ports, request, decimal(1n), fixedClock(pricedAt))
            yield* tx.quotes.insert(row)
            return { request, pricedAt, stored: row }
          }),
        )
        const { request } = checked
        if (checked.stored !== undefined) return toQuote(checked.stored, request.from, request.to)
        const midRate = yield* providerMidRate(ports, request.from.currency, request.to.currency)
        const row = yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const priced = yield* pricedQuote(ports, request, midRate, fixedClock(checked.pricedAt))
            yield* tx.quotes.insert(priced)
            return priced
          }),
        )
        return toQuote(row, request.from, request.to)
      }).pipe(writeAccess(actor)),
  }
}

export type Quotes = ReturnType<typeof makeQuotes>
