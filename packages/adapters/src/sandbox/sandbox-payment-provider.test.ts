import { brandId, type PaymentSubmission } from "@payments-engine/core"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { sandboxExamples } from "./sandbox-examples.ts"
import {
  createSandboxPaymentProvider,
  isSandboxFailureAmount,
  sandboxFailureReason,
  sandboxUsdRates,
} from "./sandbox-payment-provider.ts"
import { sandboxCountries } from "./sandbox-requirements.ts"

const currencies = Object.keys(sandboxUsdRates)
const ba1 = brandId("ba", "ba_1")

/** A decimal string as integer units at a scale, parsed by hand: "0.92" is [92n, 2]. */
const units = (text: string): [bigint, number] => {
  const [whole, fraction = ""] = text.split(".")
  return [BigInt(`${whole}${fraction}`), fraction.length]
}

const submission = (paymentId: string, amount: string, currency = "USD"): PaymentSubmission => ({
  paymentId: brandId("pay", paymentId),
  sourceAmount: amount,
  sourceCurrency: currency,
  targetAmount: amount,
  targetCurrency: currency,
  instructedAmount: amount,
  instructedCurrency: currency,
  paymentMethod: "ach",
  providerBeneficiaryId: null,
})

describe("the sandbox's exchange rates", () => {
  const provider = createSandboxPaymentProvider()
  const rate = async (source: string, target: string) => (await provider.exchangeRate({ source, target })).rate

  it("quote fixed mid rates and exact cross rates", async () => {
    expect(await rate("USD", "EUR")).toBe("0.92000000")
    expect(await rate("EUR", "USD")).toBe("1.08695652") // 1 / 0.92 = 1.086956521...
    expect(await rate("EUR", "GBP")).toBe("0.85869565") // 0.79 / 0.92 = 0.858695652...
    expect(await rate("JPY", "USD")).toBe("0.00668896") // 1 / 149.5 = 0.006688963...
    expect(await rate("USD", "JPY")).toBe("149.50000000")
    expect(await rate("GBP", "GBP")).toBe("1.00000000")
  })

  it("are the exact quotient of the USD rates, rounded half up to 8 decimals", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...currencies), fc.constantFrom(...currencies), async (source, target) => {
        const text = await rate(source, target)
        expect(text).toMatch(/^[0-9]+\.[0-9]{8}$/)
        // r rounds t/s half up at 8 decimals iff (2r - 1) * s <= 2 * t * 10^8 < (2r + 1) * s, in integers
        const [r] = units(text)
        const [s, sScale] = units(sandboxUsdRates[source]!)
        const [t, tScale] = units(sandboxUsdRates[target]!)
        const scale = Math.max(sScale, tScale)
        const sAligned = s * 10n ** BigInt(scale - sScale)
        const tAligned = t * 10n ** BigInt(scale - tScale)
        expect((2n * r - 1n) * sAligned <= 2n * tAligned * 10n ** 8n).toBe(true)
        expect(2n * tAligned * 10n ** 8n < (2n * r + 1n) * sAligned).toBe(true)
      }),
    )
  })

  it("come back to 1 there and back, within the rounding of both rates", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...currencies), fc.constantFrom(...currencies), async (a, b) => {
        const [there] = units(await rate(a, b))
        const [back] = units(await rate(b, a))
        // each rate is off by at most half a unit of 10^-8: the product is off by at most (there + back) / 2 units of 10^-16
        const error = there * back - 10n ** 16n
        expect((error < 0n ? -error : error) <= (there + back) / 2n + 1n).toBe(true)
      }),
    )
  })

  it("take overrides and extra currencies, refuse bad ones, and reject unknown currencies by name", async () => {
    const custom = createSandboxPaymentProvider({ rates: { EUR: "0.5", XAU: "0.0004" } })
    expect(await custom.exchangeRate({ source: "USD", target: "EUR" })).toEqual({ rate: "0.50000000" })
    expect(await custom.exchangeRate({ source: "XAU", target: "EUR" })).toEqual({ rate: "1250.00000000" })
    expect(await custom.exchangeRate({ source: "USD", target: "GBP" })).toEqual({ rate: "0.79000000" })
    for (const bad of ["0", "-1", "abc", "1,5", ""]) {
      expect(() => createSandboxPaymentProvider({ rates: { EUR: bad } })).toThrow(/EUR must be a positive decimal/)
    }
    await expect(provider.exchangeRate({ source: "USD", target: "XYZ" })).rejects.toThrow(/XYZ/)
    await expect(provider.exchangeRate({ source: "QQQ", target: "USD" })).rejects.toThrow(/QQQ/)
  })
})

describe("the sandbox's payments", () => {
  it("fail instructed amounts with minor part .13, and only those", async () => {
    const sandbox = createSandboxPaymentProvider()
    expect(await sandbox.submitPayment(submission("pay_1", "10.13"))).toEqual({
      status: "failed",
      providerPaymentId: expect.stringMatching(/^ppay_[0-9a-f]{24}$/),
      reason: sandboxFailureReason,
    })
    expect(sandboxFailureReason).toBe("Sandbox test amount ending in .13")
    expect((await sandbox.submitPayment(submission("pay_2", "10.12"))).status).toBe("completed")
    expect((await sandbox.submitPayment(submission("pay_3", "1013", "JPY"))).status).toBe("failed")
    expect((await sandbox.submitPayment(submission("pay_4", "1012", "JPY"))).status).toBe("completed")
    expect((await sandbox.submitPayment(submission("pay_5", "13.00"))).status).toBe("completed")
    expect((await sandbox.submitPayment(submission("pay_6", "1.130", "BHD"))).status).toBe("failed")
    expect((await sandbox.submitPayment(submission("pay_7", "1.013", "BHD"))).status).toBe("completed")
  })

  it("decide by the amount in minor units: last two digits 13 for 0 and 2 decimals, 130 for 3", () => {
    const currency = fc.constantFrom(["USD", 2], ["EUR", 2], ["GBP", 2], ["JPY", 0], ["BHD", 3]) as fc.Arbitrary<
      [string, number]
    >
    fc.assert(
      fc.property(currency, fc.bigInt({ min: 1n, max: 10n ** 13n }), ([code, decimals], minor) => {
        const digits = minor.toString().padStart(decimals + 1, "0")
        const amount = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
        const fails = decimals === 3 ? minor % 1000n === 130n : minor % 100n === 13n
        expect({ amount, fails: isSandboxFailureAmount(amount, code) }).toEqual({ amount, fails })
      }),
    )
  })

  it("answer a repeated payment id with its first outcome and execute it once", async () => {
    const sandbox = createSandboxPaymentProvider()
    const first = await sandbox.submitPayment(submission("pay_1", "10.12"))
    expect(await sandbox.submitPayment(submission("pay_1", "10.13"))).toEqual(first)
    expect(await sandbox.submitPayment(submission("pay_1", "99.00", "EUR"))).toEqual(first)
    expect(sandbox.submittedPayments()).toEqual([{ ...submission("pay_1", "10.12"), outcome: first }])
  })

  it("execute concurrent submissions of one payment id once", async () => {
    const sandbox = createSandboxPaymentProvider({ latencyMs: 5, sleep: () => Promise.resolve() })
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom("pay_a", "pay_b", "pay_c"), { maxLength: 20 }), async (ids) => {
        const before = sandbox.submittedPayments().length
        const outcomes = await Promise.all(ids.map((id) => sandbox.submitPayment(submission(id, "5.00"))))
        const all = sandbox.submittedPayments()
        expect(new Set(all.map((p) => p.paymentId)).size).toBe(all.length)
        expect(all.length - before).toBeLessThanOrEqual(new Set(ids).size)
        ids.forEach((id, i) => {
          expect(outcomes[i]).toEqual(all.find((p) => p.paymentId === id)?.outcome)
        })
      }),
    )
  })
})

describe("the sandbox's beneficiaries", () => {
  it("get an id derived from the reference: the same for the same reference, different for others", async () => {
    const sandbox = createSandboxPaymentProvider()
    const other = createSandboxPaymentProvider()
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.string({ minLength: 1 }).map((raw) => brandId("ba", raw)),
          { minLength: 2, maxLength: 10 },
        ),
        async (refs) => {
          const ids = await Promise.all(
            refs.map((reference) => sandbox.createBeneficiary({ reference, details: sandboxExamples.US_ACH })),
          )
          expect(new Set(ids.map((i) => i.providerBeneficiaryId)).size).toBe(refs.length)
          for (const [i, reference] of refs.entries()) {
            expect(await sandbox.createBeneficiary({ reference, details: sandboxExamples.GB_FPS })).toEqual(ids[i])
            expect(await other.createBeneficiary({ reference, details: sandboxExamples.GB_FPS })).toEqual(ids[i])
          }
        },
      ),
    )
    const ba = await sandbox.createBeneficiary({ reference: ba1, details: sandboxExamples.US_ACH })
    expect(ba.providerBeneficiaryId).toMatch(/^ben_[0-9a-f]{24}$/)
    expect(sandbox.beneficiaries().get(ba1)).toEqual({ ...ba, details: sandboxExamples.US_ACH })
  })
})

describe("the sandbox's latency and failures", () => {
  it("wait the configured latency through the given sleep before answering, on every method", async () => {
    const waits: number[] = []
    let wake = () => {}
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        waits.push(ms)
        wake = resolve
      })
    const slow = createSandboxPaymentProvider({ latencyMs: 250, sleep })
    let answered = false
    const pending = slow.exchangeRate({ source: "USD", target: "EUR" }).then((answer) => {
      answered = true
      return answer
    })
    await Promise.resolve()
    await Promise.resolve()
    expect([answered, waits]).toEqual([false, [250]])
    wake()
    expect(await pending).toEqual({ rate: "0.92000000" })

    const instant = createSandboxPaymentProvider({ latencyMs: 40, sleep: async (ms) => void waits.push(ms) })
    await instant.paymentMethods({ countryCode: "US", currencyCode: "USD", entityType: "COMPANY" })
    await instant.bankAccountRequirements({ countryCode: "US", currencyCode: "USD", entityType: "COMPANY" })
    await instant.createBeneficiary({ reference: ba1, details: {} })
    await instant.submitPayment(submission("pay_1", "1.00"))
    await instant.findPayment(brandId("pay", "pay_1"))
    expect(waits).toEqual([250, 40, 40, 40, 40, 40])
    expect(() => createSandboxPaymentProvider({ latencyMs: -1 })).toThrow(/latencyMs/)
  })

  it("fail the next call once when told, in order, then work again", async () => {
    const sandbox = createSandboxPaymentProvider()
    sandbox.failNext("exchangeRate", new Error("provider down"))
    sandbox.failNext("exchangeRate")
    await expect(sandbox.exchangeRate({ source: "USD", target: "EUR" })).rejects.toThrow("provider down")
    await expect(sandbox.exchangeRate({ source: "USD", target: "EUR" })).rejects.toThrow(
      "Sandbox payment provider: injected failure of exchangeRate",
    )
    await expect(sandbox.exchangeRate({ source: "USD", target: "EUR" })).resolves.toEqual({ rate: "0.92000000" })

    sandbox.failNext("submitPayment", new Error("timeout"))
    await expect(sandbox.submitPayment(submission("pay_1", "1.00"))).rejects.toThrow("timeout")
    expect(sandbox.submittedPayments()).toEqual([])
  })

  it("can lose the answer of a call that took effect, so a retry finds the payment already made", async () => {
    const sandbox = createSandboxPaymentProvider()
    sandbox.failNext("submitPayment", new Error("connection reset"), "after")
    await expect(sandbox.submitPayment(submission("pay_1", "1.13"))).rejects.toThrow("connection reset")
    expect(sandbox.submittedPayments().map((p) => p.paymentId)).toEqual(["pay_1"])
    expect(await sandbox.submitPayment(submission("pay_1", "1.13"))).toMatchObject({ status: "failed" })
    expect(sandbox.submittedPayments()).toHaveLength(1)
  })

  it("tell a payment's outcome by its id, the first one, and nothing of an id never submitted", async () => {
    const sandbox = createSandboxPaymentProvider()
    const first = await sandbox.submitPayment(submission("pay_1", "10.13"))
    await sandbox.submitPayment(submission("pay_1", "10.12"))
    const second = await sandbox.submitPayment(submission("pay_2", "10.12"))
    expect(await sandbox.findPayment(brandId("pay", "pay_1"))).toEqual(first)
    expect(await sandbox.findPayment(brandId("pay", "pay_2"))).toEqual(second)
    expect(second).toMatchObject({ status: "completed" })
    expect(await sandbox.findPayment(brandId("pay", "pay_3"))).toBeUndefined()
    // A submission refused before it took effect executed nothing: the payment stays unknown.
    sandbox.failNext("submitPayment", new Error("timeout"))
    await expect(sandbox.submitPayment(submission("pay_3", "1.00"))).rejects.toThrow("timeout")
    expect(await sandbox.findPayment(brandId("pay", "pay_3"))).toBeUndefined()
    // One whose answer was lost on the way back did: it is known, with the outcome the caller missed.
    sandbox.failNext("submitPayment", new Error("connection reset"), "after")
    await expect(sandbox.submitPayment(submission("pay_4", "4.13"))).rejects.toThrow("connection reset")
    expect(await sandbox.findPayment(brandId("pay", "pay_4"))).toEqual({
      status: "failed",
      providerPaymentId: expect.stringMatching(/^ppay_/),
      reason: sandboxFailureReason,
    })
    // Asking executes nothing.
    expect(sandbox.submittedPayments().map((p) => p.paymentId)).toEqual(["pay_1", "pay_2", "pay_4"])
  })

  it("fail findPayment when told, once or until cleared, as every other method", async () => {
    const sandbox = createSandboxPaymentProvider()
    const known = await sandbox.submitPayment(submission("pay_1", "1.00"))
    const pay1 = brandId("pay", "pay_1")
    sandbox.failNext("findPayment", new Error("timeout"))
    await expect(sandbox.findPayment(pay1)).rejects.toThrow("timeout")
    expect(await sandbox.findPayment(pay1)).toEqual(known)
    sandbox.failNext("findPayment", new Error("lost"), "after")
    await expect(sandbox.findPayment(pay1)).rejects.toThrow("lost")
    sandbox.setFailure("findPayment", true)
    await expect(sandbox.findPayment(pay1)).rejects.toThrow(/injected failure of findPayment/)
    await expect(sandbox.findPayment(brandId("pay", "pay_2"))).rejects.toThrow(/findPayment/)
    sandbox.setFailure("findPayment", false)
    expect(await sandbox.findPayment(pay1)).toEqual(known)
    const down = createSandboxPaymentProvider({ failures: { findPayment: true } })
    await expect(down.findPayment(pay1)).rejects.toThrow(/findPayment/)
  })

  it("fail every call of a method while a standing failure is set", async () => {
    const down = new Error("maintenance")
    const sandbox = createSandboxPaymentProvider({ failures: { createBeneficiary: down, exchangeRate: true } })
    for (let i = 0; i < 3; i++) {
      await expect(sandbox.createBeneficiary({ reference: ba1, details: {} })).rejects.toBe(down)
      await expect(sandbox.exchangeRate({ source: "USD", target: "EUR" })).rejects.toThrow(/exchangeRate/)
    }
    expect(sandbox.beneficiaries().size).toBe(0)
    sandbox.setFailure("createBeneficiary", false)
    await expect(sandbox.createBeneficiary({ reference: ba1, details: {} })).resolves.toMatchObject({
      providerBeneficiaryId: expect.any(String),
    })
    sandbox.setFailure("submitPayment", true)
    await expect(sandbox.submitPayment(submission("pay_1", "1.00"))).rejects.toThrow(/submitPayment/)
  })
})

describe("the sandbox's bank countries", () => {
  it("lists every country it has payment methods for, and only those, in order", async () => {
    const provider = createSandboxPaymentProvider({ latencyMs: 0 })
    const listed = await provider.bankCountries()
    expect(listed).toEqual(Object.keys(sandboxCountries).toSorted())
    expect(listed).not.toContain("AQ")
    for (const countryCode of listed) {
      const currencyCode = sandboxCountries[countryCode]?.currency ?? ""
      const methods = await provider.paymentMethods({ countryCode, currencyCode, entityType: "COMPANY" })
      expect(methods.length, countryCode).toBeGreaterThan(0)
    }
  })
})
