import { formatDecimal, multiply, parseDecimal, roundHalfUp, validateBeneficiaryDetails } from "@payments-engine/core"
import { describe, expect, it } from "vitest"
import { sandboxExamples } from "./sandbox-examples.ts"
import { createSandboxPaymentProvider } from "./sandbox-payment-provider.ts"

const provider = createSandboxPaymentProvider()

const schemaFor = async (details: (typeof sandboxExamples)[keyof typeof sandboxExamples]) => {
  const answer = await provider.bankAccountRequirements({
    countryCode: details.bank_details.bank_country_code,
    currencyCode: details.bank_details.account_currency,
    entityType: "COMPANY",
    transferMethod: "LOCAL",
    ...("local_clearing_system" in details.bank_details
      ? { localClearingSystem: details.bank_details.local_clearing_system }
      : {}),
  })
  if (!answer.ok) throw new Error(answer.message)
  return answer.schema
}

describe("the sandbox's bank-account requirements", () => {
  it("accept every documented example, and refuse it with a digit changed where a checksum exists", async () => {
    for (const [name, details] of Object.entries(sandboxExamples)) {
      const schema = await schemaFor(details)
      expect({ name, errors: validateBeneficiaryDetails(details, schema) }).toEqual({ name, errors: [] })
    }
    const ach = await schemaFor(sandboxExamples.US_ACH)
    const broken = {
      ...sandboxExamples.US_ACH,
      bank_details: { ...sandboxExamples.US_ACH.bank_details, account_routing_value1: "021000022" },
    }
    expect(validateBeneficiaryDetails(broken, ach)).toEqual([
      {
        field: "beneficiary_details.bank_details.account_routing_value1",
        message: "is not a valid ABA routing number",
      },
    ])
    const sepa = await schemaFor(sandboxExamples.DE_SEPA)
    const badIban = {
      ...sandboxExamples.DE_SEPA,
      bank_details: { ...sandboxExamples.DE_SEPA.bank_details, account_number: "DE89370400440532013001" },
    }
    expect(validateBeneficiaryDetails(badIban, sepa)).toEqual([
      { field: "beneficiary_details.bank_details.account_number", message: "is not a valid IBAN" },
    ])
    const spei = await schemaFor(sandboxExamples.MX_SPEI)
    const badClabe = {
      ...sandboxExamples.MX_SPEI,
      bank_details: { ...sandboxExamples.MX_SPEI.bank_details, account_number: "002010077777777772" },
    }
    expect(validateBeneficiaryDetails(badClabe, spei)).toEqual([
      { field: "beneficiary_details.bank_details.account_number", message: "is not a valid CLABE" },
    ])
  })

  it("change with the refresh fields: another clearing system or transfer method, another schema", async () => {
    const base = { countryCode: "US", currencyCode: "USD", entityType: "COMPANY" } as const
    const ach = await provider.bankAccountRequirements({ ...base, localClearingSystem: "ACH" })
    const wire = await provider.bankAccountRequirements({ ...base, localClearingSystem: "FEDWIRE" })
    const swift = await provider.bankAccountRequirements({ ...base, transferMethod: "SWIFT" })
    if (!ach.ok || !wire.ok || !swift.ok) throw new Error("expected schemas")
    expect([ach.schema.payment_method, wire.schema.payment_method, swift.schema.payment_method]).toEqual([
      "ach",
      "wire",
      "swift",
    ])
    expect(ach.schema.fields.filter((f) => f.field.refresh).map((f) => f.path)).toEqual([
      "entity_type",
      "transfer_methods",
      "bank_details.local_clearing_system",
    ])
    expect(swift.schema.fields.map((f) => f.path)).toContain("bank_details.account_routing_value1")
    expect(swift.schema.fields.find((f) => f.path === "bank_details.account_routing_type1")?.field.default).toBe(
      "swift",
    )
  })

  it("explain what they cannot serve", async () => {
    expect(
      await provider.bankAccountRequirements({ countryCode: "US", currencyCode: "EUR", entityType: "COMPANY" }),
    ).toEqual({
      ok: false,
      message: "Bank country US does not support currency EUR",
    })
    expect(
      await provider.bankAccountRequirements({ countryCode: "ZZ", currencyCode: "USD", entityType: "COMPANY" }),
    ).toMatchObject({ ok: false })
    expect(
      await provider.bankAccountRequirements({
        countryCode: "GB",
        currencyCode: "GBP",
        entityType: "COMPANY",
        localClearingSystem: "ACH",
      }),
    ).toEqual({ ok: false, message: "Clearing system ACH is not available for GB" })
    expect(await provider.paymentMethods({ countryCode: "US", currencyCode: "USD", entityType: "COMPANY" })).toEqual([
      { transfer_method: "LOCAL", local_clearing_systems: ["ACH", "FEDWIRE"] },
      { transfer_method: "SWIFT", local_clearing_systems: [] },
    ])
    expect(await provider.paymentMethods({ countryCode: "US", currencyCode: "JPY", entityType: "COMPANY" })).toEqual([])
  })
})

describe("the sandbox's rates and payments", () => {
  it("quote exact cross rates that round-trip within rounding", async () => {
    const there = parseDecimal((await provider.exchangeRate({ source: "USD", target: "EUR" })).rate)!
    const back = parseDecimal((await provider.exchangeRate({ source: "EUR", target: "USD" })).rate)!
    expect((await provider.exchangeRate({ source: "USD", target: "EUR" })).rate).toBe("0.92000000")
    expect((await provider.exchangeRate({ source: "EUR", target: "GBP" })).rate).toBe("0.85869565")
    // 1 USD -> EUR -> USD comes back as 1 to within the rates' 8 decimals
    expect(formatDecimal(roundHalfUp(multiply(there, back), 6), 6)).toBe("1.000000")
    await expect(provider.exchangeRate({ source: "USD", target: "XYZ" })).rejects.toThrow(/XYZ/)
  })

  it("fail .13 amounts, complete the rest, and answer a repeated payment id with its first outcome", async () => {
    const sandbox = createSandboxPaymentProvider()
    const submission = (paymentId: string, amount: string, currency = "USD") => ({
      paymentId,
      sourceAmount: amount,
      sourceCurrency: currency,
      targetAmount: amount,
      targetCurrency: currency,
      instructedAmount: amount,
      instructedCurrency: currency,
      paymentMethod: "ach",
      providerBeneficiaryId: null,
    })
    expect((await sandbox.submitPayment(submission("pay_1", "10.13"))).status).toBe("failed")
    expect((await sandbox.submitPayment(submission("pay_2", "10.12"))).status).toBe("completed")
    expect((await sandbox.submitPayment(submission("pay_3", "1013", "JPY"))).status).toBe("failed")
    expect(await sandbox.submitPayment(submission("pay_2", "10.12"))).toEqual(
      await sandbox.submitPayment(submission("pay_2", "99")),
    )
    expect(sandbox.submittedPayments().map((p) => p.paymentId)).toEqual(["pay_1", "pay_2", "pay_3"])
  })

  it("wait the configured latency through the given sleep, and fail once when told", async () => {
    const waits: number[] = []
    const slow = createSandboxPaymentProvider({ latencyMs: 250, sleep: async (ms) => void waits.push(ms) })
    slow.failNext("exchangeRate", new Error("provider down"))
    await expect(slow.exchangeRate({ source: "USD", target: "EUR" })).rejects.toThrow("provider down")
    await expect(slow.exchangeRate({ source: "USD", target: "EUR" })).resolves.toEqual({ rate: "0.92000000" })
    expect(waits).toEqual([250, 250])
  })
})
