import { Effect, Exit } from "effect"
import { ProviderFailure } from "../../errors.ts"
import type { PaymentId } from "../../model/ids.ts"
import type { BankLinkProvider } from "../../ports/bank-link-provider.ts"
import type { PaymentOutcome, PaymentProvider } from "../../ports/payment-provider.ts"
import type { PaymentRecord, ProfileInUse, QuoteRecord } from "../../ports/storage/index.ts"
import type { SpanAttributes } from "../../ports/tracing.ts"
import type { ServicePorts } from "./service-ports.ts"
import { inChildSpan } from "./trace-spans.ts"

/** A method of the payment provider or of the bank linker, as its call's span names it. */
export type ProviderOperation =
  | { readonly port: "payment"; readonly operation: keyof PaymentProvider }
  | { readonly port: "bank_link"; readonly operation: keyof BankLinkProvider }

/**
 * How a provider call ended, for its span: `success`; `final`, an answer that settles the
 * matter against the caller (a payment the provider failed, a bank form it does not offer);
 * `retryable`, no answer (a rejection: the call may be made again).
 */
const outcomeOf = (exit: Exit.Exit<unknown, unknown>): SpanAttributes => {
  if (Exit.isFailure(exit)) return { "payments.provider.outcome": "retryable" }
  const answer = exit.value as { readonly status?: unknown; readonly ok?: unknown } | undefined
  const final = typeof answer === "object" && answer !== null && (answer.status === "failed" || answer.ok === false)
  return { "payments.provider.outcome": final ? "final" : "success" }
}

/**
 * Calls a provider outside any storage transaction, in a span of its own when traced
 * (`payments.provider.<operation>`, with `attributes` and its outcome). A rejection becomes a
 * `provider_failure` on `base` with `message`, never a defect with the provider's internals in it.
 */
export const providerCall = <A>(
  { port, operation }: ProviderOperation,
  message: string,
  call: () => Promise<A>,
  attributes: SpanAttributes = {},
): Effect.Effect<A, ProviderFailure> =>
  inChildSpan(
    `payments.provider.${operation}`,
    {
      kind: "client",
      attributes: { "payments.provider.port": port, "payments.provider.operation": operation, ...attributes },
      ended: outcomeOf,
    },
    () => Effect.tryPromise({ try: call, catch: () => new ProviderFailure({ field: "base", message }) }),
  )

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
  return providerCall(
    { port: "payment", operation: "submitPayment" },
    "Payment provider failed to execute the payment",
    () =>
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
    { "payments.payment_id": row.id },
  )
}

/**
 * Asks the payment provider how the payment submitted with `paymentId` ended (see
 * `PaymentProvider.findPayment`): undefined when it never received it.
 */
export const findPayment = (
  ports: Pick<ServicePorts, "paymentProvider">,
  paymentId: PaymentId,
): Effect.Effect<PaymentOutcome | undefined, ProviderFailure> =>
  providerCall(
    { port: "payment", operation: "findPayment" },
    "Payment provider failed to report the payment",
    () => ports.paymentProvider.findPayment(paymentId),
    { "payments.payment_id": paymentId },
  )
