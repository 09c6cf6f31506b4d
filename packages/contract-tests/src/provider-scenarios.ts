import {
  BankAccountId,
  type BankLinkProvider,
  compare,
  countryAlpha2Codes,
  type Decimal,
  divide,
  EntityId,
  isCountryAlpha2,
  isCurrencyCode,
  isValidAbaRoutingNumber,
  minorUnits,
  multiply,
  PaymentId,
  type PaymentMethodQuery,
  type PaymentOutcome,
  type PaymentProvider,
  parseDecimal,
  type RequirementsAnswer,
  type RequirementsQuery,
  validateBeneficiaryDetails,
} from "@payments-engine/core"
import { BankAccountRequirements, PaymentMethod } from "@payments-engine/core/effect"
import { Either, Schema } from "effect"
import { expect } from "vitest"
import type {
  FaultableCall,
  PaymentAmounts,
  ProviderContractTestId,
  ProviderFixtures,
  ProviderUnderTest,
} from "./provider-options.ts"
import { nextNumber, processTag } from "./test-ports.ts"

/** One test of the provider suite: an id to skip it by, a title, what it needs, and the steps. */
export interface ProviderScenario {
  readonly id: ProviderContractTestId
  /** What a passing adapter does, as the test title shows it after the id. */
  readonly title: string
  /** Runs only when the provider under test has this hook, port or fixture; otherwise reports as skipped. */
  readonly requires?:
    | { readonly hook: "loseNextAnswer" | "refuseNextCall"; readonly because: string }
    | { readonly port: "bankLinker"; readonly because: string }
    | { readonly fixture: "declines"; readonly because: string }
  readonly run: (provider: ProviderUnderTest, fixtures: ProviderFixtures) => Promise<void>
}

/** Rates with more decimals than this read as binary floating point printed (0.1 + 0.2 = 0.30000000000000004). */
export const maxRateDecimals = 12

const unique = (prefix: string) => `${prefix}_contract_${processTag}_${nextNumber()}`
const newPaymentId = () => PaymentId.make(unique("pay"))
const newBankAccountId = () => BankAccountId.make(unique("ba"))

/** The error a call rejects with; fails the test, saying what it answered, when it resolves. */
const rejection = async (call: Promise<unknown>, what: string): Promise<unknown> => {
  let value: unknown
  try {
    value = await call
  } catch (error) {
    return error
  }
  throw new Error(`${what}: expected the call to reject, but it answered ${JSON.stringify(value)}`)
}

/** Awaits a call that must resolve, naming the call when it rejects instead. */
const answer = async <A>(call: Promise<A>, what: string): Promise<A> => {
  try {
    return await call
  } catch (error) {
    throw new Error(`${what} rejected: ${error instanceof Error ? error.message : String(error)}`)
  }
}

const hook = (provider: ProviderUnderTest, name: "loseNextAnswer" | "refuseNextCall", method: FaultableCall) => {
  const plant = provider[name]
  if (plant === undefined) throw new Error(`${name} is absent`)
  plant(method)
}

const linkerOf = (provider: ProviderUnderTest): BankLinkProvider => {
  if (provider.bankLinker === undefined) throw new Error("bankLinker is absent")
  return provider.bankLinker
}

/** Registers the fixture's beneficiary and answers a submission of `amounts` to it under a new payment id. */
const submissionTo = async (provider: PaymentProvider, fixtures: ProviderFixtures, amounts: PaymentAmounts) => {
  const { providerBeneficiaryId } = await answer(
    provider.createBeneficiary({ reference: newBankAccountId(), details: fixtures.beneficiary.details }),
    "createBeneficiary of the fixture's details",
  )
  return { ...amounts, paymentId: newPaymentId(), providerBeneficiaryId }
}

const firstCompleting = (fixtures: ProviderFixtures): PaymentAmounts => {
  const amounts = fixtures.completes[0]
  if (amounts === undefined)
    throw new Error("fixtures.completes is empty: name at least one payment the provider completes")
  return amounts
}

const declinedOf = (fixtures: ProviderFixtures): PaymentAmounts => {
  if (fixtures.declines === undefined) throw new Error("fixtures.declines is absent")
  return fixtures.declines
}

const expectOutcome = (outcome: PaymentOutcome, status: PaymentOutcome["status"], what: string) => {
  expect(outcome.status, `${what}: status`).toBe(status)
  expect(
    typeof outcome.providerPaymentId === "string" && outcome.providerPaymentId.length > 0,
    `${what}: a providerPaymentId`,
  ).toBe(true)
  if (outcome.status === "failed") {
    expect(
      typeof outcome.reason === "string" && outcome.reason.trim().length > 0,
      `${what}: a failed outcome's reason`,
    ).toBe(true)
  }
}

/** The decimals of an exact decimal string written without exponent or sign ("0.92"), or undefined. */
const plainDecimals = (text: unknown): number | undefined => {
  if (typeof text !== "string") return undefined
  const match = /^(?:0|[1-9][0-9]*)(?:\.([0-9]+))?$/.exec(text)
  return match === null ? undefined : (match[1]?.length ?? 0)
}

const requirementsOf = async (provider: PaymentProvider, query: RequirementsQuery): Promise<RequirementsAnswer> =>
  answer(provider.bankAccountRequirements(query), `bankAccountRequirements(${JSON.stringify(query)})`)

/** The queries of every method and clearing system the provider offers for the fixture's bank. */
const methodQueries = async (
  provider: PaymentProvider,
  query: PaymentMethodQuery,
): Promise<ReadonlyArray<RequirementsQuery>> => {
  const methods = await answer(provider.paymentMethods(query), `paymentMethods(${JSON.stringify(query)})`)
  return methods.flatMap((method) =>
    method.local_clearing_systems.length === 0
      ? [{ ...query, transferMethod: method.transfer_method }]
      : method.local_clearing_systems.map((system) => ({
          ...query,
          transferMethod: method.transfer_method,
          localClearingSystem: system,
        })),
  )
}

const one = parseDecimal("1") as Decimal

/** True when `rate` is within 10 % of `about`, in exact decimals. */
const near = (rate: Decimal, about: Decimal): boolean => {
  const ratio = divide(rate, about, 12)
  const low = parseDecimal("0.9") as Decimal
  const high = parseDecimal("1.1") as Decimal
  return compare(ratio, low) >= 0 && compare(ratio, high) <= 0
}

export const providerScenarios: ReadonlyArray<ProviderScenario> = [
  {
    id: "countries.listed",
    title: "bankCountries lists ISO 3166-1 alpha-2 codes, upper case, once each, the fixture's among them",
    run: async ({ paymentProvider }, fixtures) => {
      const countries = await answer(paymentProvider.bankCountries(), "bankCountries()")
      expect(countries.length, "bankCountries() is empty").toBeGreaterThan(0)
      expect(
        countries.filter((code) => !isCountryAlpha2(code)),
        "codes that are not ISO 3166-1 alpha-2, upper case",
      ).toEqual([])
      expect(
        countries.filter((code, i) => countries.indexOf(code) !== i),
        "codes listed twice",
      ).toEqual([])
      expect(countries, "the fixture's bank country").toContain(fixtures.beneficiary.query.countryCode)
    },
  },
  {
    id: "countries.unlisted-have-no-methods",
    title: "a country bankCountries does not list has no payment methods",
    run: async ({ paymentProvider }, fixtures) => {
      const countries = new Set(await answer(paymentProvider.bankCountries(), "bankCountries()"))
      const unlisted = countryAlpha2Codes().find((code) => !countries.has(code))
      if (unlisted === undefined) return
      const query = { ...fixtures.beneficiary.query, countryCode: unlisted }
      const methods = await answer(paymentProvider.paymentMethods(query), `paymentMethods(${JSON.stringify(query)})`)
      expect(methods, `payment methods of ${unlisted}, which bankCountries() does not list`).toEqual([])
    },
  },
  {
    id: "requirements.decode",
    title:
      "every method of the fixture's bank has a schema that decodes, names its condition, and whose patterns compile",
    run: async ({ paymentProvider }, fixtures) => {
      const methods = await answer(paymentProvider.paymentMethods(fixtures.beneficiary.query), "paymentMethods")
      expect(methods.length, "paymentMethods of the fixture's bank is empty").toBeGreaterThan(0)
      for (const method of methods) {
        const decoded = Schema.decodeUnknownEither(PaymentMethod)(method)
        expect(Either.isRight(decoded), `payment method ${JSON.stringify(method)} does not decode`).toBe(true)
        expect(method.transfer_method, "transfer_method is upper case").toBe(method.transfer_method.toUpperCase())
      }
      for (const query of await methodQueries(paymentProvider, fixtures.beneficiary.query)) {
        const what = `bankAccountRequirements(${JSON.stringify(query)})`
        const result = await requirementsOf(paymentProvider, query)
        if (!result.ok)
          throw new Error(
            `${what} answered { ok: false, message: ${JSON.stringify(result.message)} } for a method paymentMethods offers`,
          )
        const decoded = Schema.decodeUnknownEither(BankAccountRequirements)(result.schema)
        if (Either.isLeft(decoded)) throw new Error(`${what}: the schema does not decode: ${decoded.left.message}`)
        expect(result.schema.condition, `${what}: condition`).toMatchObject({
          bank_country_code: query.countryCode,
          account_currency: query.currencyCode,
          entity_type: query.entityType,
          transfer_method: query.transferMethod,
          local_clearing_system: query.localClearingSystem ?? null,
        })
        expect(
          typeof result.schema.payment_method === "string" && result.schema.payment_method.length > 0,
          `${what}: payment_method`,
        ).toBe(true)
        const paths = result.schema.fields.filter((f) => f.enabled).map((f) => f.path)
        expect(
          paths.filter((path, i) => paths.indexOf(path) !== i),
          `${what}: fields with the same path`,
        ).toEqual([])
        for (const field of result.schema.fields) {
          if (field.rule === null) continue
          const pattern = field.rule.pattern
          expect(() => new RegExp(pattern), `${what}: the pattern of ${field.path} does not compile`).not.toThrow()
        }
      }
    },
  },
  {
    id: "requirements.default-is-first-method",
    title: "without transferMethod and localClearingSystem, the schema is the first method's",
    run: async ({ paymentProvider }, fixtures) => {
      const [first] = await methodQueries(paymentProvider, fixtures.beneficiary.query)
      expect(first, "paymentMethods of the fixture's bank is empty").toBeDefined()
      const defaulted = await requirementsOf(paymentProvider, fixtures.beneficiary.query)
      if (first === undefined) return
      const explicit = await requirementsOf(paymentProvider, first)
      expect(defaulted, "the default schema against the first method's").toEqual(explicit)
    },
  },
  {
    id: "requirements.details-satisfy",
    title: "the fixture's beneficiary details satisfy the default schema (the engine validates with it)",
    run: async ({ paymentProvider }, fixtures) => {
      const result = await requirementsOf(paymentProvider, fixtures.beneficiary.query)
      if (!result.ok) throw new Error(`the default schema of the fixture's bank is refused: ${result.message}`)
      expect(
        validateBeneficiaryDetails(fixtures.beneficiary.details, result.schema),
        "the fixture's details against the schema",
      ).toEqual([])
    },
  },
  {
    id: "requirements.unsupported-is-an-answer",
    title: "an unsupported method answers { ok: false, message } (a final answer for the client), not a rejection",
    run: async ({ paymentProvider }, fixtures) => {
      for (const query of [
        { ...fixtures.beneficiary.query, transferMethod: "NOT_A_METHOD" },
        { ...fixtures.beneficiary.query, transferMethod: "LOCAL", localClearingSystem: "NOT_A_SYSTEM" },
      ]) {
        const what = `bankAccountRequirements(${JSON.stringify(query)})`
        const result = await requirementsOf(paymentProvider, query)
        expect(result.ok, `${what}: ok`).toBe(false)
        if (result.ok) return
        expect(result.message.trim().length, `${what}: the message is empty`).toBeGreaterThan(0)
        expect(result.message, `${what}: a message fit for a client carries no stack`).not.toMatch(/\n\s+at /)
      }
    },
  },
  {
    id: "beneficiaries.idempotent",
    title: "createBeneficiary twice with one reference gives one beneficiary; another reference another",
    run: async ({ paymentProvider }, fixtures) => {
      const reference = newBankAccountId()
      const request = { reference, details: fixtures.beneficiary.details }
      const first = await answer(paymentProvider.createBeneficiary(request), "createBeneficiary")
      expect(
        typeof first.providerBeneficiaryId === "string" && first.providerBeneficiaryId.length > 0,
        "a providerBeneficiaryId",
      ).toBe(true)
      const again = await answer(
        paymentProvider.createBeneficiary(request),
        "createBeneficiary repeated with the same reference",
      )
      expect(again, "the repeated call's beneficiary").toEqual(first)
      const other = await answer(
        paymentProvider.createBeneficiary({ reference: newBankAccountId(), details: fixtures.beneficiary.details }),
        "createBeneficiary with another reference",
      )
      expect(other.providerBeneficiaryId, "another reference's beneficiary").not.toBe(first.providerBeneficiaryId)
    },
  },
  {
    id: "beneficiaries.lost-answer",
    title: "after createBeneficiary's answer is lost, calling again answers the beneficiary it created",
    requires: { hook: "loseNextAnswer", because: "the test double must lose an answer on purpose" },
    run: async (provider, fixtures) => {
      const request = { reference: newBankAccountId(), details: fixtures.beneficiary.details }
      hook(provider, "loseNextAnswer", "createBeneficiary")
      await rejection(provider.paymentProvider.createBeneficiary(request), "createBeneficiary with its answer lost")
      const retried = await answer(
        provider.paymentProvider.createBeneficiary(request),
        "createBeneficiary retried after a lost answer",
      )
      const again = await answer(provider.paymentProvider.createBeneficiary(request), "createBeneficiary once more")
      expect(again, "the beneficiary of a third call").toEqual(retried)
    },
  },
  {
    id: "rates.exact-decimals",
    title: `exchangeRate answers positive plain decimals (no exponent, at most ${maxRateDecimals} decimals), the right way round`,
    run: async ({ paymentProvider }, fixtures) => {
      expect(fixtures.rates.length, "fixtures.rates is empty").toBeGreaterThan(0)
      for (const { source, target, about } of fixtures.rates) {
        const what = `exchangeRate(${source} -> ${target})`
        const { rate } = await answer(paymentProvider.exchangeRate({ source, target }), what)
        const decimals = plainDecimals(rate)
        expect(decimals, `${what} answered ${JSON.stringify(rate)}, not a plain decimal string`).toBeDefined()
        expect(decimals, `${what} answered ${rate}: more decimals than a rate has`).toBeLessThanOrEqual(maxRateDecimals)
        const value = parseDecimal(rate) as Decimal
        expect(value.units > 0n, `${what} answered ${rate}, not positive`).toBe(true)
        if (about !== undefined) {
          expect(
            near(value, parseDecimal(about) as Decimal),
            `${what} answered ${rate}, not within 10 % of ${about}`,
          ).toBe(true)
        }
        const back = await answer(
          paymentProvider.exchangeRate({ source: target, target: source }),
          `exchangeRate(${target} -> ${source})`,
        )
        const backValue = parseDecimal(back.rate)
        expect(backValue, `exchangeRate(${target} -> ${source}) answered ${JSON.stringify(back.rate)}`).toBeDefined()
        const roundTrip = multiply(value, backValue as Decimal)
        const off = compare(roundTrip, one) >= 0 ? roundTrip : divide(one, roundTrip, 12)
        expect(
          compare(off, parseDecimal("1.1") as Decimal) <= 0,
          `${source} -> ${target} -> ${source} multiplies by ${rate} x ${back.rate}: mid rates one way and back are near 1`,
        ).toBe(true)
      }
    },
  },
  {
    id: "payments.minor-units",
    title: "payments in their currencies' minor units (the fixtures') complete, each with a providerPaymentId",
    run: async ({ paymentProvider }, fixtures) => {
      for (const amounts of fixtures.completes) {
        for (const [amount, currency] of [
          [amounts.sourceAmount, amounts.sourceCurrency],
          [amounts.targetAmount, amounts.targetCurrency],
          [amounts.instructedAmount, amounts.instructedCurrency],
        ] as const) {
          expect(
            plainDecimals(amount),
            `fixture amount ${amount} ${currency}: the engine sends ${minorUnits(currency)} decimals`,
          ).toBe(minorUnits(currency))
        }
        const submission = await submissionTo(paymentProvider, fixtures, amounts)
        const what = `submitPayment of ${amounts.instructedAmount} ${amounts.instructedCurrency}`
        expectOutcome(await answer(paymentProvider.submitPayment(submission), what), "completed", what)
      }
    },
  },
  {
    id: "payments.idempotent",
    title: "submitPayment twice with one payment id answers the first outcome; another id is another payment",
    run: async ({ paymentProvider }, fixtures) => {
      const submission = await submissionTo(paymentProvider, fixtures, firstCompleting(fixtures))
      const first = await answer(paymentProvider.submitPayment(submission), "submitPayment")
      const again = await answer(
        paymentProvider.submitPayment(submission),
        "submitPayment repeated with the same payment id",
      )
      expect(again, "the repeated submission's outcome").toEqual(first)
      const other = await answer(
        paymentProvider.submitPayment({ ...submission, paymentId: newPaymentId() }),
        "submitPayment of another payment id",
      )
      expect(other.providerPaymentId, "another payment id's providerPaymentId").not.toBe(first.providerPaymentId)
    },
  },
  {
    id: "payments.find",
    title: "findPayment answers what submitPayment answered, and undefined for an id never submitted",
    run: async ({ paymentProvider }, fixtures) => {
      const submission = await submissionTo(paymentProvider, fixtures, firstCompleting(fixtures))
      expect(
        await answer(paymentProvider.findPayment(submission.paymentId), "findPayment before any submission"),
        "findPayment of an id never submitted",
      ).toBeUndefined()
      const outcome = await answer(paymentProvider.submitPayment(submission), "submitPayment")
      expect(
        await answer(paymentProvider.findPayment(submission.paymentId), "findPayment"),
        "findPayment after the submission",
      ).toEqual(outcome)
    },
  },
  {
    id: "payments.lost-answer",
    title: "after submitPayment's answer is lost, findPayment answers the outcome, and submitting again the same one",
    requires: { hook: "loseNextAnswer", because: "the test double must lose an answer on purpose" },
    run: async (provider, fixtures) => {
      const submission = await submissionTo(provider.paymentProvider, fixtures, firstCompleting(fixtures))
      hook(provider, "loseNextAnswer", "submitPayment")
      await rejection(provider.paymentProvider.submitPayment(submission), "submitPayment with its answer lost")
      const found = await answer(
        provider.paymentProvider.findPayment(submission.paymentId),
        "findPayment after a lost answer",
      )
      expect(found, "findPayment of a payment whose answer was lost (the provider did act on it)").toBeDefined()
      expectOutcome(found as PaymentOutcome, "completed", "findPayment after a lost answer")
      const again = await answer(
        provider.paymentProvider.submitPayment(submission),
        "submitPayment retried after a lost answer",
      )
      expect(again, "the retried submission's outcome").toEqual(found)
    },
  },
  {
    id: "payments.rejection-decides-nothing",
    title: "a submission refused before the provider acted leaves the payment unknown, and a retry pays it once",
    requires: { hook: "refuseNextCall", because: "the test double must refuse a call on purpose" },
    run: async (provider, fixtures) => {
      const submission = await submissionTo(provider.paymentProvider, fixtures, firstCompleting(fixtures))
      hook(provider, "refuseNextCall", "submitPayment")
      await rejection(provider.paymentProvider.submitPayment(submission), "submitPayment refused")
      expect(
        await answer(provider.paymentProvider.findPayment(submission.paymentId), "findPayment after a refusal"),
        "findPayment of a payment the provider refused before acting",
      ).toBeUndefined()
      const retried = await answer(
        provider.paymentProvider.submitPayment(submission),
        "submitPayment retried after a refusal",
      )
      expectOutcome(retried, "completed", "submitPayment retried after a refusal")
      expect(
        await answer(provider.paymentProvider.findPayment(submission.paymentId), "findPayment"),
        "findPayment after the retry",
      ).toEqual(retried)
    },
  },
  {
    id: "payments.decline-is-an-outcome",
    title: "a payment the provider declines resolves as failed with a reason (final), not a rejection (retryable)",
    requires: { fixture: "declines", because: "the provider must be able to decline a payment in test" },
    run: async ({ paymentProvider }, fixtures) => {
      const submission = await submissionTo(paymentProvider, fixtures, declinedOf(fixtures))
      const what = `submitPayment of ${submission.instructedAmount} ${submission.instructedCurrency} (fixtures.declines)`
      const outcome = await answer(paymentProvider.submitPayment(submission), what)
      expectOutcome(outcome, "failed", what)
      expect(
        await answer(paymentProvider.findPayment(submission.paymentId), "findPayment"),
        "findPayment of the declined payment",
      ).toEqual(outcome)
    },
  },
  {
    id: "payments.final-outcomes",
    title: "an outcome never changes: asked again or submitted again with other amounts, the provider answers it",
    run: async ({ paymentProvider }, fixtures) => {
      const completing = firstCompleting(fixtures)
      const other: PaymentAmounts = fixtures.declines ?? { ...completing, instructedAmount: completing.sourceAmount }
      const completed = await submissionTo(paymentProvider, fixtures, completing)
      const first = await answer(paymentProvider.submitPayment(completed), "submitPayment")
      expect(
        await answer(
          paymentProvider.submitPayment({ ...completed, ...other }),
          "submitPayment of the same id, other amounts",
        ),
        "a completed payment submitted again with other amounts",
      ).toEqual(first)
      expect(
        await answer(paymentProvider.findPayment(completed.paymentId), "findPayment"),
        "findPayment of the completed payment",
      ).toEqual(first)
      if (fixtures.declines === undefined) return
      const declined = await submissionTo(paymentProvider, fixtures, fixtures.declines)
      const failed = await answer(paymentProvider.submitPayment(declined), "submitPayment of fixtures.declines")
      expect(
        await answer(
          paymentProvider.submitPayment({ ...declined, ...completing }),
          "submitPayment of the declined id, completing amounts",
        ),
        "a declined payment submitted again with amounts the provider completes",
      ).toEqual(failed)
      expect(
        await answer(paymentProvider.findPayment(declined.paymentId), "findPayment"),
        "findPayment of the declined payment",
      ).toEqual(failed)
    },
  },
  {
    id: "bank-link.institutions",
    title: "institutions lists banks with distinct ids and names",
    requires: { port: "bankLinker", because: "the provider under test links no bank accounts" },
    run: async (provider) => {
      const banks = await answer(linkerOf(provider).institutions(), "institutions()")
      expect(banks.length, "institutions() is empty").toBeGreaterThan(0)
      const ids = banks.map((bank) => bank.id)
      expect(
        ids.filter((id, i) => ids.indexOf(id) !== i),
        "institution ids listed twice",
      ).toEqual([])
      expect(
        banks.filter((bank) => bank.id.length === 0 || bank.name.trim().length === 0),
        "institutions without id or name",
      ).toEqual([])
    },
  },
  {
    id: "bank-link.idempotent",
    title: "link twice with one reference gives one connection; another reference another",
    requires: { port: "bankLinker", because: "the provider under test links no bank accounts" },
    run: async (provider) => {
      const linker = linkerOf(provider)
      const request = { reference: newBankAccountId(), entityId: EntityId.make(unique("ent")) }
      const first = await answer(linker.link(request), "link")
      expect(await answer(linker.link(request), "link repeated with the same reference"), "the repeated link").toEqual(
        first,
      )
      const other = await answer(
        linker.link({ ...request, reference: newBankAccountId() }),
        "link with another reference",
      )
      expect(other.connectionId, "another reference's connectionId").not.toBe(first.connectionId)
    },
  },
  {
    id: "bank-link.linked-account",
    title:
      "each institution links an account with a mask (never the full number), a valid ABA routing number and ISO codes",
    requires: { port: "bankLinker", because: "the provider under test links no bank accounts" },
    run: async (provider) => {
      const linker = linkerOf(provider)
      const banks = await answer(linker.institutions(), "institutions()")
      const entityId = EntityId.make(unique("ent"))
      for (const institutionId of [undefined, ...banks.map((bank) => bank.id)]) {
        const what = `link at ${institutionId ?? "the default institution"}`
        const account = await answer(linker.link({ reference: newBankAccountId(), entityId, institutionId }), what)
        expect(account.connectionId.length, `${what}: connectionId`).toBeGreaterThan(0)
        expect(account.institutionName.trim().length, `${what}: institutionName`).toBeGreaterThan(0)
        expect(account.accountNumberMask, `${what}: a mask shows at most the last 4 digits`).toMatch(
          /^[^0-9]*[0-9]{0,4}$/,
        )
        expect(account.routingNumberType, `${what}: routingNumberType`).toBe("aba")
        expect(
          isValidAbaRoutingNumber(account.routingNumber),
          `${what}: routing number ${account.routingNumber} fails the ABA check`,
        ).toBe(true)
        expect(isCurrencyCode(account.currency), `${what}: currency ${account.currency}`).toBe(true)
        expect(isCountryAlpha2(account.countryCode), `${what}: countryCode ${account.countryCode}`).toBe(true)
        expect(account.paymentMethod, `${what}: paymentMethod is a lower-case name (ach)`).toMatch(/^[a-z_]+$/)
      }
    },
  },
  {
    id: "bank-link.unlink",
    title: "unlink resolves, and again when repeated (a retry after a lost answer)",
    requires: { port: "bankLinker", because: "the provider under test links no bank accounts" },
    run: async (provider) => {
      const linker = linkerOf(provider)
      const account = await answer(
        linker.link({ reference: newBankAccountId(), entityId: EntityId.make(unique("ent")) }),
        "link",
      )
      await answer(linker.unlink(account.connectionId), "unlink")
      await answer(linker.unlink(account.connectionId), "unlink repeated")
    },
  },
]
