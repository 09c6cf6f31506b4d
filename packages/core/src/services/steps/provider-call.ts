import { Effect } from "effect"
import { ProviderFailure } from "../../errors.ts"
import type { PaymentOutcome } from "../../ports/payment-provider.ts"
import type { PaymentRecord, ProfileInUse, QuoteRecord } from "../../ports/storage/index.ts"
import type { ServicePorts } from "./service-ports.ts"

/**
 * Calls a provider outside any storage transaction. A rejection becomes a `provider_failure` on `base` with
 * `message`, never a defect with the provider's internals in it.
 */
export const providerCall = <A>(message: string, call: () => Promise<A>): Effect.Effect<A, ProviderFailure> =>
  Effect.tryPromise({ try: call, catch: () => new ProviderFailure({ field: "base", message }) })

/**
 * Submits a processing payment to the payment provider, keyed by its id, at its quote's amounts
 * and to the beneficiary of its `to` profile (one of `profiles`): the provider's outcome.
 */
export const submitPayment = (
  ports: Pick<ServicePorts, "paymentProvider">,
  row: PaymentRecord,
  quote: QuoteRecord,
  profiles: ReadonlyArray<ProfileInUse>,
): Effect.Effect<PaymentOutcome, ProviderFailure> => {
  const to = profiles.find((use) => use.profile.id === row.to_profile_id)
  return providerCall("Payment provider failed to execute the payment", () =>
    ports.paymentProvider.submitPayment({
      paymentId: row.id,
      sourceAmount: quote.source_amount,
      sourceCurrency: quote.source_currency,
      targetAmount: quote.target_amount,
      targetCurrency: quote.target_currency,
      instructedAmount: quote.instructed_amount,
      instructedCurrency: quote.instructed_currency,
      paymentMethod: quote.payment_method,
      providerBeneficiaryId: to?.provider_beneficiary_id ?? null,
    }),
  )
}
