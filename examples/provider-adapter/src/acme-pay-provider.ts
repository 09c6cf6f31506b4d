import {
  minorUnits,
  type PaymentOutcome,
  type PaymentProvider,
  parseDecimal,
  type RequirementField,
  type RequirementsAnswer,
} from "@payments-engine/core"

/*
 * A payment provider adapter for "Acme Pay", a made-up provider API shaped like real ones
 * (routes per country, dynamic account forms, recipients, rates, transfers, an Idempotency-Key
 * header). It talks through `AcmeTransport`; the tests give it a recorded-response double
 * (acme-pay-double.ts). It is an example of the mapping, not an integration with any provider.
 */

/** One HTTP exchange with the provider, as the adapter sees it. */
export interface AcmeRequest {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: unknown
}

export interface AcmeResponse {
  readonly status: number
  readonly body: unknown
}

/** Sends a request; rejects when no answer came back (a refused connection, a timeout). */
export type AcmeTransport = (request: AcmeRequest) => Promise<AcmeResponse>

/** A provider error the engine may retry or resolve by asking: a 5xx, a 429, or a transfer still in flight. */
export class AcmeRetryableError extends Error {}

type Json = Readonly<Record<string, unknown>>

const text = (value: unknown, what: string): string => {
  if (typeof value !== "string") throw new AcmeRetryableError(`Acme Pay answered ${what} that is not a string`)
  return value
}

/**
 * "10.13" USD to "1013", "1013" JPY to "1013", "10.130" BHD to "10130": the amount in the
 * currency's minor units, by string, never by float. The engine sends exactly `minorUnits` decimals.
 */
export const toMinorUnits = (amount: string, currency: string): string => {
  const value = parseDecimal(amount)
  const digits = minorUnits(currency)
  if (value === undefined || value.scale !== digits) throw new RangeError(`${amount} ${currency} is not in minor units`)
  return value.units.toString()
}

/** The outcome of a transfer the provider answered; a transfer still in flight is not an outcome yet. */
const outcomeOf = (transfer: Json): PaymentOutcome => {
  const providerPaymentId = text(transfer.id, "a transfer id")
  if (transfer.state === "paid") return { status: "completed", providerPaymentId }
  if (transfer.state === "rejected")
    return { status: "failed", providerPaymentId, reason: text(transfer.reason, "a reason") }
  throw new AcmeRetryableError(`Acme Pay transfer ${providerPaymentId} is ${String(transfer.state)}`)
}

/** Answers the body of a 2xx; a 5xx or 429 is retryable; any other status is `onClientError`'s to decide. */
const send = async <A>(
  transport: AcmeTransport,
  request: AcmeRequest,
  onClientError: (response: AcmeResponse) => A,
): Promise<Json | A> => {
  const response = await transport(request)
  if (response.status >= 500 || response.status === 429) {
    throw new AcmeRetryableError(`Acme Pay answered ${response.status} to ${request.method} ${request.path}`)
  }
  if (response.status >= 400) return onClientError(response)
  return response.body as Json
}

const unexpected = (response: AcmeResponse): never => {
  throw new AcmeRetryableError(`Acme Pay answered ${response.status}: ${JSON.stringify(response.body)}`)
}

const query = (values: Readonly<Record<string, string | undefined>>) =>
  new URLSearchParams(Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined)).toString()

/** A field of Acme Pay's account form as the engine's requirements schema describes it. */
const requirementField = (field: Json): RequirementField => {
  const path = text(field.path, "a field path")
  return {
    enabled: true,
    path,
    required: field.required === true,
    field: {
      key: path.split(".").at(-1) ?? path,
      label: text(field.label, "a label"),
      type: "INPUT",
      options: [],
      default: null,
      refresh: false,
    },
    rule: { type: "REGEX", pattern: text(field.pattern, "a pattern"), minimum_length: null, maximum_length: null },
  }
}

/** The payment provider port over Acme Pay's API. */
export const createAcmePayProvider = (transport: AcmeTransport): PaymentProvider => ({
  bankCountries: async () => {
    const body = (await send(transport, { method: "GET", path: "/countries" }, unexpected)) as Json
    return (body.countries as ReadonlyArray<string>).map((code) => code.toUpperCase())
  },

  paymentMethods: async ({ countryCode, currencyCode, entityType }) => {
    const path = `/routes?${query({ country: countryCode, currency: currencyCode, entity: entityType })}`
    const body = await send(transport, { method: "GET", path }, (r) => (r.status === 404 ? undefined : unexpected(r)))
    if (body === undefined) return []
    return (body.routes as ReadonlyArray<Json>).map((route) => ({
      transfer_method: text(route.scheme, "a scheme"),
      local_clearing_systems: (route.rails as ReadonlyArray<string>) ?? [],
    }))
  },

  bankAccountRequirements: async (q): Promise<RequirementsAnswer> => {
    const path = `/forms?${query({ country: q.countryCode, currency: q.currencyCode, entity: q.entityType, scheme: q.transferMethod, rail: q.localClearingSystem })}`
    // A 422 is Acme Pay's final word on the combination: a message for the client, not a failure.
    const body = await send(transport, { method: "GET", path }, (r) =>
      r.status === 422 ? { message: text((r.body as Json).error, "an error") } : unexpected(r),
    )
    if ("message" in body) return { ok: false, message: body.message as string }
    const form = body as Json
    return {
      ok: true,
      schema: {
        condition: {
          bank_country_code: q.countryCode,
          account_currency: q.currencyCode,
          entity_type: q.entityType,
          transfer_method: text(form.scheme, "a scheme"),
          local_clearing_system: (form.rail as string | null) ?? null,
        },
        fields: (form.fields as ReadonlyArray<Json>).map(requirementField),
        payment_method: text(form.payment_method, "a payment method"),
      },
    }
  },

  // The engine's bank account id is the idempotency key: a retry after a lost answer gets the same recipient.
  createBeneficiary: async ({ reference, details }) => {
    const request = {
      method: "POST",
      path: "/recipients",
      headers: { "Idempotency-Key": reference },
      body: details,
    } as const
    const body = (await send(transport, request, unexpected)) as Json
    return { providerBeneficiaryId: text(body.id, "a recipient id") }
  },

  // Acme Pay writes rates as JSON strings; a JSON number would go through a float before we see it.
  exchangeRate: async ({ source, target }) => {
    const body = (await send(
      transport,
      { method: "GET", path: `/rates?${query({ from: source, to: target })}` },
      unexpected,
    )) as Json
    return { rate: text(body.rate, "a rate") }
  },

  submitPayment: async (payment) => {
    const request = {
      method: "POST",
      path: "/transfers",
      headers: { "Idempotency-Key": payment.paymentId },
      body: {
        reference: payment.paymentId,
        recipient: payment.providerBeneficiaryId,
        sell: {
          currency: payment.sourceCurrency,
          amount_minor: toMinorUnits(payment.sourceAmount, payment.sourceCurrency),
        },
        buy: {
          currency: payment.targetCurrency,
          amount_minor: toMinorUnits(payment.targetAmount, payment.targetCurrency),
        },
      },
    } as const
    return outcomeOf((await send(transport, request, unexpected)) as Json)
  },

  // 404: Acme Pay never received a transfer with this reference, so it moved no money for it.
  findPayment: async (paymentId) => {
    const path = `/transfers/by-reference/${encodeURIComponent(paymentId)}`
    const body = await send(transport, { method: "GET", path }, (r) => (r.status === 404 ? undefined : unexpected(r)))
    return body === undefined ? undefined : outcomeOf(body)
  },
})
