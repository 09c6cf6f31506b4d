import type { Actor, Engine, PaymentSubmission } from "@payments-engine/core"
import fc from "fast-check"
import { expect } from "vitest"
import type { Harness } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import { defaultNumRuns } from "./model-run.ts"
import type { ContractSuiteOptions } from "./options.ts"
import { payingCompany, payQuote, quoteFor } from "./payment-scenarios.ts"

/** What the model knows: quotes by creation order, payments by business key. */
interface PaymentModel {
  readonly quotes: Array<{ readonly cents: bigint; readonly expiresAt: number; used: boolean }>
  readonly payments: Map<string, { readonly quote: number; status: "pending" | "done" | "cancelled" }>
  now: number
}

interface PaymentReal {
  readonly engine: Engine
  readonly actor: Actor
  readonly companyId: string
  readonly from: string
  readonly to: string
  readonly advance: (ms: number) => void
  readonly submissions: () => ReadonlyArray<PaymentSubmission>
  readonly quoteIds: string[]
  /** Source amount of each quote, in cents. */
  readonly sourceCents: bigint[]
  readonly paymentIds: Map<string, string>
}

type Command = fc.AsyncCommand<PaymentModel, PaymentReal>

const cents = (amount: string): bigint => BigInt(amount.replace(".", ""))
const failsInSandbox = (c: bigint) => c % 100n === 13n

class Quote implements Command {
  constructor(readonly cents: bigint) {}
  check = () => true
  async run(model: PaymentModel, real: PaymentReal) {
    const quote = await quoteFor(real.engine, real.actor, real.companyId, real.from, real.to, Number(this.cents) / 100)
    expect(cents(quote.instructed_amount)).toBe(this.cents)
    model.quotes.push({ cents: this.cents, expiresAt: model.now + 15 * 60 * 1000, used: false })
    real.quoteIds.push(quote.id)
    real.sourceCents.push(cents(quote.source_amount))
  }
  toString = () => `Quote(${this.cents})`
}

class Pay implements Command {
  constructor(
    readonly quote: number,
    readonly key: string,
  ) {}
  check = (model: Readonly<PaymentModel>) => model.quotes.length > 0
  async run(model: PaymentModel, real: PaymentReal) {
    const index = this.quote % model.quotes.length
    const quote = model.quotes[index]!
    const attempt = payQuote(real.engine, real.actor, real.companyId, real.quoteIds[index]!, this.key)
    const earlier = model.payments.get(this.key)
    if (earlier !== undefined) {
      if (earlier.quote === index) {
        const again = await attempt
        expect(again.created).toBe(false)
        expect(again.payment.id).toBe(real.paymentIds.get(this.key))
      } else {
        await expect(attempt).rejects.toMatchObject({ status: 422, errors: [{ field: "idempotency_key" }] })
      }
      return
    }
    if (model.now >= quote.expiresAt) {
      await expect(attempt).rejects.toMatchObject({ status: 422, errors: [{ message: "Quote has expired" }] })
      return
    }
    if (quote.used) {
      await expect(attempt).rejects.toMatchObject({ status: 422, errors: [{ message: "Quote has already been used" }] })
      return
    }
    const { payment, created } = await attempt
    expect(created).toBe(true)
    quote.used = true
    model.payments.set(this.key, { quote: index, status: "pending" })
    real.paymentIds.set(this.key, payment.id)
  }
  toString = () => `Pay(#${this.quote}, ${this.key})`
}

class Cancel implements Command {
  constructor(readonly key: string) {}
  check = (model: Readonly<PaymentModel>) => model.payments.has(this.key)
  async run(model: PaymentModel, real: PaymentReal) {
    const payment = model.payments.get(this.key)!
    const attempt = real.engine.payments.cancel(real.actor, real.companyId, real.paymentIds.get(this.key)!)
    if (payment.status === "pending") {
      expect((await attempt).status).toBe("cancelled")
      payment.status = "cancelled"
    } else {
      await expect(attempt).rejects.toMatchObject({ status: 422, errors: [{ field: "status" }] })
    }
  }
  toString = () => `Cancel(${this.key})`
}

class RunJobs implements Command {
  check = () => true
  async run(model: PaymentModel, real: PaymentReal) {
    await real.engine.jobs.runDue(1000)
    for (const payment of model.payments.values()) if (payment.status === "pending") payment.status = "done"
    const mine = new Set(real.paymentIds.values())
    const submitted = real.submissions().filter((s) => mine.has(s.paymentId))
    // no payment is submitted twice, and a cancelled one never
    expect(new Set(submitted.map((s) => s.paymentId)).size).toBe(submitted.length)
    let completedCents = 0n
    for (const [key, payment] of model.payments) {
      const id = real.paymentIds.get(key)!
      const status = (await real.engine.payments.get(real.actor, real.companyId, id)).status
      const quoteCents = model.quotes[payment.quote]!.cents
      const expected =
        payment.status === "cancelled" ? "cancelled" : failsInSandbox(quoteCents) ? "failed" : "completed"
      expect({ key, status }).toEqual({ key, status: expected })
      if (payment.status === "cancelled") expect(submitted.some((s) => s.paymentId === id)).toBe(false)
      if (status === "completed") completedCents += real.sourceCents[payment.quote]!
    }
    // what completed is exactly what the provider was asked to pay and did pay
    const paidCents = submitted
      .filter((s) => !s.instructedAmount.endsWith(".13"))
      .reduce((sum, s) => sum + cents(s.sourceAmount), 0n)
    expect(paidCents).toBe(completedCents)
  }
  toString = () => "RunJobs"
}

class Advance implements Command {
  constructor(readonly minutes: number) {}
  check = () => true
  async run(model: PaymentModel, real: PaymentReal) {
    real.advance(this.minutes * 60 * 1000)
    model.now += this.minutes * 60 * 1000
  }
  toString = () => `Advance(${this.minutes} min)`
}

const amount = fc.oneof(
  fc.bigInt({ min: 100n, max: 10_000_00n }),
  fc.bigInt({ min: 1n, max: 9_999n }).map((units) => units * 100n + 13n),
)
const key = fc.constantFrom("k1", "k2", "k3", "k4", "k5", "k6")

const commands: Array<fc.Arbitrary<Command>> = [
  amount.map((c) => new Quote(c)),
  fc.tuple(fc.nat(20), key).map(([q, k]) => new Pay(q, k)),
  key.map((k) => new Cancel(k)),
  fc.constant(new RunJobs()),
  fc.constantFrom(1, 5, 16).map((m) => new Advance(m)),
]

/**
 * Random sequences of quotes, payments, cancels, job runs and clock moves for one company, checked
 * against a tiny model: a quote pays once, never after it expired, a business key maps to one
 * payment, no payment is submitted twice or after a cancel, and what completed is exactly what
 * the provider paid.
 */
export const runPaymentModel = async (harness: Harness, options: Pick<ContractSuiteOptions, "fastCheck">) => {
  const { numRuns = defaultNumRuns, seed, path } = options.fastCheck ?? {}
  const setup = async () => {
    const paying = await payingCompany(harness)
    return {
      model: { quotes: [], payments: new Map(), now: harness.clock.now().getTime() } as PaymentModel,
      real: {
        engine: harness.engine,
        actor: paying.actor,
        companyId: paying.company.id,
        from: paying.from,
        to: paying.to,
        advance: (ms: number) => harness.clock.advance(ms),
        submissions: () => harness.paymentProvider.submissions,
        quoteIds: [],
        sourceCents: [],
        paymentIds: new Map(),
      } as PaymentReal,
    }
  }
  await fc.assert(
    fc.asyncProperty(fc.commands(commands, { maxCommands: 30, size: "max" }), (sequence) =>
      fc.asyncModelRun(setup, sequence),
    ),
    { numRuns, ...(seed === undefined ? {} : { seed }), ...(path === undefined ? {} : { path }) },
  )
}

/** The model-based run of money movement, as a group of one test. */
export const paymentModelScenarios: ScenarioGroup = {
  title: "model of payments",
  scenarios: [
    {
      id: "model.quotes-and-payments",
      title: "random quote, pay, cancel, job and clock sequences agree with a tiny model",
      timeout: 180_000,
      run: runPaymentModel,
    },
  ],
}
