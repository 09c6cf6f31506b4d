import { Effect } from "effect"
import { Invalid, type ProviderFailure } from "../../errors.ts"
import { type RequirementsBody, RequirementsRequest } from "../../model/bank-account-requirements.ts"
import { isCountryAlpha2, isCurrencyCode } from "../../model/iso-codes.ts"
import type { EntityType, PaymentMethodOption, RequirementsSchema } from "../../ports/payment-provider.ts"
import type { Actor } from "../steps/actor.ts"
import { decodeBody } from "../steps/decode-input.ts"
import { providerCall } from "../steps/provider-call.ts"
import type { ServicePorts } from "../steps/service-ports.ts"

/**
 * Reads the case-insensitive parameters: every missing one is `missing`: `<name> is required` (the
 * spec's `country_code is required`), a wrong one `invalid`.
 */
const readParameters = (input: typeof RequirementsRequest.Type) => {
  const upper = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v.trim().toUpperCase())
  const values = {
    country_code: upper(input.country_code),
    currency_code: upper(input.currency_code),
    entity_type: upper(input.entity_type),
  }
  const missing = Object.entries(values)
    .filter(([, v]) => v === undefined)
    .map(([field]) => ({ field, message: `${field} is required` }))
  if (missing.length > 0) return Effect.fail(new Invalid({ kind: "missing", errors: missing }))
  const wrong = [
    isCountryAlpha2(values.country_code!) ? undefined : { field: "country_code", message: "Invalid country code" },
    isCurrencyCode(values.currency_code!) ? undefined : { field: "currency_code", message: "Invalid currency code" },
    values.entity_type === "COMPANY" || values.entity_type === "PERSONAL"
      ? undefined
      : { field: "entity_type", message: "must be one of: COMPANY, PERSONAL" },
  ].filter((e) => e !== undefined)
  if (wrong.length > 0) return Effect.fail(new Invalid({ kind: "invalid", errors: wrong }))
  return Effect.succeed({
    countryCode: values.country_code!,
    currencyCode: values.currency_code!,
    entityType: values.entity_type as EntityType,
    transferMethod: upper(input.transfer_method),
    localClearingSystem: upper(input.local_clearing_system),
  })
}

/** Payment methods and bank-account requirements, passed through from the payment provider. */
export const makePaymentMethods = (ports: ServicePorts) => ({
  /**
   * The bank countries the payment provider pays to, as ISO codes in order: what a form offers as
   * the country of a recipient's bank (the hosted bank-account page lists them by name).
   *
   * @example
   * const countries = await engine.paymentMethods.bankCountries(actor) // ["AU", "CA", ..., "US"]
   */
  bankCountries: (_actor: Actor): Effect.Effect<ReadonlyArray<string>, ProviderFailure> =>
    providerCall({ port: "payment", operation: "bankCountries" }, "Payment provider is unavailable", () =>
      ports.paymentProvider.bankCountries(),
    ).pipe(Effect.map((codes) => [...new Set(codes.map((code) => code.toUpperCase()))].filter(isCountryAlpha2).sort())),

  /** `GET /api/v1/payment_methods`: transfer methods for a bank country, currency and entity type. */
  list: (_actor: Actor, query: unknown): Effect.Effect<ReadonlyArray<PaymentMethodOption>, Invalid | ProviderFailure> =>
    Effect.gen(function* () {
      const parameters = yield* readParameters(yield* decodeBody(RequirementsRequest, query))
      return yield* providerCall(
        { port: "payment", operation: "paymentMethods" },
        "Payment provider is unavailable",
        () =>
          ports.paymentProvider.paymentMethods({
            countryCode: parameters.countryCode,
            currencyCode: parameters.currencyCode,
            entityType: parameters.entityType,
          }),
      )
    }),

  /** `POST /api/v1/bank_account_requirements`: the form schema; provider refusals are `invalid` on `base` with its message. */
  requirements: (
    _actor: Actor,
    body: RequirementsBody,
  ): Effect.Effect<Omit<RequirementsSchema, "payment_method">, Invalid | ProviderFailure> =>
    Effect.gen(function* () {
      const { transferMethod, localClearingSystem, ...parameters } = yield* readParameters(
        yield* decodeBody(RequirementsRequest, body),
      )
      const answer = yield* providerCall(
        { port: "payment", operation: "bankAccountRequirements" },
        "Payment provider is unavailable",
        () =>
          ports.paymentProvider.bankAccountRequirements({
            ...parameters,
            ...(transferMethod === undefined ? {} : { transferMethod }),
            ...(localClearingSystem === undefined ? {} : { localClearingSystem }),
          }),
      )
      if (!answer.ok) return yield* Effect.fail(Invalid.rule("base", answer.message))
      const { payment_method: _method, ...schema } = answer.schema
      return schema
    }),
})

export type PaymentMethods = ReturnType<typeof makePaymentMethods>
