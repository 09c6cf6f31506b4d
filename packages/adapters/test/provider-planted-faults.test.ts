import {
  type ProviderContractTestId,
  type ProviderUnderTest,
  runProviderContractTest,
} from "@payments-engine/contract-tests"
import type { BankLinkProvider, PaymentId, PaymentOutcome, PaymentProvider } from "@payments-engine/core"
import { describe, expect, it } from "vitest"
import { createSandboxBankLinker } from "../src/bank-link/sandbox-bank-linker.ts"
import { createSandboxPaymentProvider, isSandboxFailureAmount, sandboxUsdRates } from "../src/sandbox/index.ts"
import { sandboxProviderFixtures as fixtures, sandboxUnderTest } from "./sandbox-provider-fixtures.ts"

/*
 * The provider suite must fail an adapter with a bug, not only pass the sandbox. Each case plants
 * one bug that provider adapters are prone to into a copy of the sandbox provider (the sandbox
 * with some methods rewritten) and names the tests that must catch it.
 */

/** The sandbox under test with `plant` rewriting its payment provider's methods. */
const withProviderFault =
  (plant: (sandbox: PaymentProvider) => Partial<PaymentProvider>) => async (): Promise<ProviderUnderTest> => {
    const sandbox = createSandboxPaymentProvider()
    const under = sandboxUnderTest(sandbox)
    return { ...under, paymentProvider: { ...sandbox, ...plant(sandbox) } }
  }

/** The sandbox under test with `plant` rewriting its bank linker's methods. */
const withLinkerFault =
  (plant: (linker: BankLinkProvider) => Partial<BankLinkProvider>) => async (): Promise<ProviderUnderTest> => {
    const linker = createSandboxBankLinker()
    return { ...sandboxUnderTest(), bankLinker: { ...linker, ...plant(linker) } }
  }

let counter = 0

const cases: ReadonlyArray<{
  readonly fault: string
  readonly factory: () => Promise<ProviderUnderTest>
  readonly caughtBy: ReadonlyArray<ProviderContractTestId>
  /** What the failure says: the fault is caught for its own reason, not by a side effect. */
  readonly because: RegExp
}> = [
  {
    fault: "bankCountries in lower case",
    factory: withProviderFault((s) => ({
      bankCountries: async () => (await s.bankCountries()).map((c) => c.toLowerCase()),
    })),
    caughtBy: ["countries.listed"],
    because: /not ISO 3166-1 alpha-2/,
  },
  {
    fault: "every country gets the US methods",
    factory: withProviderFault((s) => ({ paymentMethods: (q) => s.paymentMethods({ ...q, countryCode: "US" }) })),
    caughtBy: ["countries.unlisted-have-no-methods"],
    because: /which bankCountries\(\) does not list/,
  },
  {
    fault: "a rule type in lower case (the provider's own spelling passed through)",
    factory: withProviderFault((s) => ({
      bankAccountRequirements: async (q) => {
        const answer = await s.bankAccountRequirements(q)
        if (!answer.ok) return answer
        const fields = answer.schema.fields.map((f) =>
          f.rule ? { ...f, rule: { ...f.rule, type: "regex" as "REGEX" } } : f,
        )
        return { ok: true, schema: { ...answer.schema, fields } }
      },
    })),
    caughtBy: ["requirements.decode"],
    because: /the schema does not decode/,
  },
  {
    fault: "the default schema is SWIFT's, not the first method's",
    factory: withProviderFault((s) => ({
      bankAccountRequirements: (q) =>
        s.bankAccountRequirements(q.transferMethod === undefined ? { ...q, transferMethod: "SWIFT" } : q),
    })),
    caughtBy: ["requirements.default-is-first-method"],
    because: /the default schema against the first method's/,
  },
  {
    fault: "an account-number pattern that refuses nine digits",
    factory: withProviderFault((s) => ({
      bankAccountRequirements: async (q) => {
        const answer = await s.bankAccountRequirements(q)
        if (!answer.ok) return answer
        const fields = answer.schema.fields.map((f) =>
          f.rule && f.path.endsWith("account_number") ? { ...f, rule: { ...f.rule, pattern: "^[0-9]{10,17}$" } } : f,
        )
        return { ok: true, schema: { ...answer.schema, fields } }
      },
    })),
    caughtBy: ["requirements.details-satisfy"],
    because: /the fixture's details against the schema/,
  },
  {
    fault: "an unsupported method rejects (a 500 to the client) instead of answering ok: false",
    factory: withProviderFault((s) => ({
      bankAccountRequirements: async (q) => {
        const answer = await s.bankAccountRequirements(q)
        if (!answer.ok) throw new Error(`provider said 422: ${answer.message}`)
        return answer
      },
    })),
    caughtBy: ["requirements.unsupported-is-an-answer"],
    because: /rejected: provider said 422/,
  },
  {
    fault: "a repeated beneficiary reference is refused as a duplicate (HTTP 409 passed on)",
    factory: withProviderFault((s) => {
      const seen = new Set<string>()
      return {
        createBeneficiary: async (request) => {
          const created = await s.createBeneficiary(request)
          if (seen.has(request.reference)) throw new Error("409 beneficiary already exists")
          seen.add(request.reference)
          return created
        },
      }
    }),
    caughtBy: ["beneficiaries.idempotent", "beneficiaries.lost-answer"],
    because: /rejected: 409 beneficiary already exists/,
  },
  {
    fault: "cross rates divided in binary floating point",
    factory: withProviderFault(() => ({
      exchangeRate: async ({ source, target }) => ({
        rate: String(Number(sandboxUsdRates[target]) / Number(sandboxUsdRates[source])),
      }),
    })),
    caughtBy: ["rates.exact-decimals"],
    because: /more decimals than a rate has/,
  },
  {
    fault: "rates quoted the wrong way round",
    factory: withProviderFault((s) => ({
      exchangeRate: ({ source, target }) => s.exchangeRate({ source: target, target: source }),
    })),
    caughtBy: ["rates.exact-decimals"],
    because: /not within 10 % of 0\.92/,
  },
  {
    fault: "amounts sent in hundredths whatever the currency (JPY refused)",
    factory: withProviderFault((s) => ({
      submitPayment: async (request) => {
        if (!/\.[0-9]{2}$/.test(request.sourceAmount)) throw new Error(`400 amount ${request.sourceAmount} invalid`)
        return s.submitPayment(request)
      },
    })),
    caughtBy: ["payments.minor-units"],
    because: /submitPayment of 14950 JPY rejected/,
  },
  {
    fault: "submitPayment not keyed by payment id: each call is a new payment",
    factory: withProviderFault((s) => ({
      submitPayment: async (request) => {
        counter += 1
        const outcome = await s.submitPayment(request)
        return { ...outcome, providerPaymentId: `${outcome.providerPaymentId}_${counter}` }
      },
    })),
    caughtBy: ["payments.idempotent"],
    because: /the repeated submission's outcome/,
  },
  {
    fault: "findPayment never finds (the provider's lookup by our reference not wired)",
    factory: withProviderFault(() => ({ findPayment: async () => undefined })),
    caughtBy: ["payments.find", "payments.lost-answer"],
    because: /findPayment (after the submission|of a payment whose answer was lost)/,
  },
  {
    fault: "findPayment answers completed for any id",
    factory: withProviderFault(() => ({
      findPayment: async (paymentId: PaymentId): Promise<PaymentOutcome> => ({
        status: "completed",
        providerPaymentId: paymentId,
      }),
    })),
    caughtBy: ["payments.find", "payments.rejection-decides-nothing"],
    because: /findPayment of (an id never submitted|a payment the provider refused before acting)/,
  },
  {
    fault: "a retry after a lost answer is refused as a duplicate payment",
    factory: async () => {
      const sandbox = createSandboxPaymentProvider()
      const under = sandboxUnderTest(sandbox)
      const tried = new Set<string>()
      return {
        ...under,
        paymentProvider: {
          ...sandbox,
          submitPayment: async (request) => {
            if (tried.has(request.paymentId) && (await sandbox.findPayment(request.paymentId)) === undefined) {
              return sandbox.submitPayment(request)
            }
            if (tried.has(request.paymentId)) throw new Error("409 duplicate client reference")
            tried.add(request.paymentId)
            return sandbox.submitPayment(request)
          },
        },
      }
    },
    caughtBy: ["payments.lost-answer", "payments.idempotent"],
    because: /rejected: 409 duplicate client reference/,
  },
  {
    fault: "a decline rejects (retryable) instead of answering failed (final)",
    factory: withProviderFault((s) => ({
      submitPayment: async (request) => {
        if (isSandboxFailureAmount(request.instructedAmount, request.instructedCurrency))
          throw new Error("402 declined")
        return s.submitPayment(request)
      },
    })),
    caughtBy: ["payments.decline-is-an-outcome"],
    because: /rejected: 402 declined/,
  },
  {
    fault: "a submission decides anew each time: the outcome follows the latest amounts",
    factory: withProviderFault((s) => ({
      submitPayment: async (request) => {
        const outcome = await s.submitPayment({
          ...request,
          paymentId: `${request.paymentId}_${request.instructedAmount}` as PaymentId,
        })
        return { ...outcome, providerPaymentId: request.paymentId }
      },
    })),
    caughtBy: ["payments.final-outcomes"],
    because: /submitted again with other amounts/,
  },
  {
    fault: "institutions listed twice",
    factory: withLinkerFault((l) => ({
      institutions: async () => [...(await l.institutions()), ...(await l.institutions())],
    })),
    caughtBy: ["bank-link.institutions"],
    because: /institution ids listed twice/,
  },
  {
    fault: "link not keyed by reference: each call a new connection",
    factory: withLinkerFault((l) => ({
      link: async (request) => {
        counter += 1
        const account = await l.link(request)
        return { ...account, connectionId: `${account.connectionId}_${counter}` }
      },
    })),
    caughtBy: ["bank-link.idempotent"],
    because: /the repeated link/,
  },
  {
    fault: "the full account number in the mask",
    factory: withLinkerFault((l) => ({
      link: async (request) => ({ ...(await l.link(request)), accountNumberMask: "1111222233330000" }),
    })),
    caughtBy: ["bank-link.linked-account"],
    because: /at most the last 4 digits/,
  },
  {
    fault: "unlink of a connection already removed rejects (404 passed on)",
    factory: withLinkerFault((l) => {
      const removed = new Set<string>()
      return {
        unlink: async (connectionId) => {
          if (removed.has(connectionId)) throw new Error("404 no such connection")
          removed.add(connectionId)
          return l.unlink(connectionId)
        },
      }
    }),
    caughtBy: ["bank-link.unlink"],
    because: /unlink repeated rejected/,
  },
]

describe("the provider suite catches planted faults", () => {
  it("passes the sandbox on the tests these cases expect to fail", async () => {
    for (const id of new Set(cases.flatMap((c) => c.caughtBy))) {
      await expect(runProviderContractTest(id, { factory: async () => sandboxUnderTest(), fixtures })).resolves.toEqual(
        { ran: true },
      )
    }
  })

  for (const { fault, factory, caughtBy, because } of cases) {
    for (const id of caughtBy) {
      it(`${id} fails: ${fault}`, async () => {
        await expect(runProviderContractTest(id, { factory, fixtures })).rejects.toThrow(because)
      })
    }
  }
})
