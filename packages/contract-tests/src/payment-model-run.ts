import type {
  Actor,
  CompanyId,
  Engine,
  EntityId,
  PaymentId,
  PaymentProfileId,
  PaymentStatusValue,
  QuoteId,
  RecipientId,
} from "@payments-engine/core"
import { quoteLifetimeMs } from "@payments-engine/core"
import fc from "fast-check"
import { expect } from "vitest"
import { expectRefusal, type Harness } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import { defaultNumRuns } from "./model-run.ts"
import type { ContractSuiteOptions } from "./options.ts"
import { answered, cents, payingCompany, payQuote, quoteFor, submissionsOf } from "./payment-fixtures.ts"
import { failsAtProvider, testBeneficiary } from "./test-providers.ts"

/*
 * The model: how many funding and recipient profiles the company has, its quotes (amounts in
 * integer cents, when they expire, whether a payment used them) and its payments in creation
 * order (business key, quote, status), and the engine's clock. Nothing else: no ids, no
 * timestamps, no pricing beyond "net adds the fee, gross takes it out". Its rules are the
 * decisions': a quote pays once and only before it expires, a key is one payment, a pending
 * payment can be cancelled, a job run completes every pending payment (failing a .13 amount).
 * What the provider was asked is read from the fake provider, and checked after every command.
 */

type Status = Exclude<PaymentStatusValue, "processing">

interface QuoteModel {
  readonly instructed: bigint
  /** What the payer pays, as the quote said; the provider must be asked exactly this. */
  readonly source: bigint
  readonly expiresAt: number
  used: boolean
}

interface PaymentModel {
  readonly key: string
  readonly quote: number
  status: Status
}

interface Model {
  funding: number
  accounts: number
  readonly quotes: Array<QuoteModel>
  readonly payments: Array<PaymentModel>
  /** Fresh business keys handed out so far. */
  keys: number
  now: number
}

/** Ids of what the model holds, in the same positions. */
interface Real {
  readonly harness: Harness
  readonly engine: Engine
  readonly actor: Actor
  readonly companyId: CompanyId
  readonly entityId: EntityId
  readonly recipientId: RecipientId
  readonly fromProfiles: Array<PaymentProfileId>
  readonly toProfiles: Array<PaymentProfileId>
  readonly quoteIds: Array<QuoteId>
  readonly paymentIds: Array<PaymentId>
}

type Command = fc.AsyncCommand<Model, Real>

const dollars = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, "0")}`

/**
 * The invariants, checked after every command against what the fake provider recorded: no
 * payment is submitted twice; a pending or cancelled payment was never submitted; a completed
 * or failed one was submitted once, for its quote's source amount, and the provider answered
 * its status; and the completed payments' source amounts add up, in exact cents, to what the
 * provider was asked to pay for the payments it completed.
 */
const checkInvariants = (model: Model, real: Real) => {
  const submitted = submissionsOf(real.harness.paymentProvider.submissions, real.paymentIds)
  const decided = answered(submitted)
  const perPayment = new Map<string, number>()
  for (const s of decided) perPayment.set(s.paymentId, (perPayment.get(s.paymentId) ?? 0) + 1)
  const twice = [...perPayment].filter(([, n]) => n > 1).map(([id]) => id)
  expect(twice, "payments submitted to the provider more than once").toEqual([])

  let completedCents = 0n
  for (const [i, payment] of model.payments.entries()) {
    const id = real.paymentIds[i]!
    const calls = decided.filter((s) => s.paymentId === id)
    const quote = model.quotes[payment.quote]!
    if (payment.status === "pending" || payment.status === "cancelled") {
      const attempts = submitted.filter((s) => s.paymentId === id).length
      expect({ key: payment.key, status: payment.status, submissions: attempts }).toEqual({
        key: payment.key,
        status: payment.status,
        submissions: 0,
      })
      continue
    }
    expect(
      calls.map((s) => ({ key: payment.key, answer: s.answer, source: cents(s.sourceAmount) })),
      `what the provider was asked for payment ${payment.key}`,
    ).toEqual([{ key: payment.key, answer: payment.status, source: quote.source }])
    if (payment.status === "completed") completedCents += quote.source
  }
  const paidCents = decided.filter((s) => s.answer === "completed").reduce((sum, s) => sum + cents(s.sourceAmount), 0n)
  expect(paidCents, "completed payments' source amounts against what the provider paid").toBe(completedCents)
}

class LinkFunding implements Command {
  check = () => true
  async run(model: Model, real: Real) {
    const account = await real.engine.fundingAccounts.link(real.actor, real.entityId, {})
    expect(account.payment_profiles).toMatchObject([{ usage_type: "debit", status: "active", currency: "USD" }])
    real.fromProfiles.push(account.payment_profiles[0]!.id)
    model.funding += 1
    checkInvariants(model, real)
  }
  toString = () => "LinkFunding"
}

class AddRecipientAccount implements Command {
  constructor(readonly accountNumber: string) {}
  check = () => true
  async run(model: Model, real: Real) {
    const account = await real.engine.bankAccounts.createForRecipient(real.actor, real.companyId, real.recipientId, {
      entity_id: real.entityId,
      beneficiary_details: {
        ...testBeneficiary,
        bank_details: { ...testBeneficiary.bank_details, account_number: this.accountNumber },
      },
    })
    expect(account.account_details[0]?.account_number_mask).toBe(`****${this.accountNumber.slice(-4)}`)
    expect(account.payment_profiles).toMatchObject([{ usage_type: "credit", status: "active" }])
    real.toProfiles.push(account.payment_profiles[0]!.id)
    model.accounts += 1
    checkInvariants(model, real)
  }
  toString = () => `AddRecipientAccount(${this.accountNumber})`
}

class Quote implements Command {
  constructor(
    readonly from: number,
    readonly to: number,
    readonly amount: bigint,
    readonly strategy: "net" | "gross",
  ) {}
  check = (model: Readonly<Model>) => model.funding > 0 && model.accounts > 0
  async run(model: Model, real: Real) {
    const from = real.fromProfiles[this.from % real.fromProfiles.length]!
    const to = real.toProfiles[this.to % real.toProfiles.length]!
    const quote = await quoteFor(real.engine, real.actor, real.companyId, from, to, Number(dollars(this.amount)), {
      strategy: this.strategy,
    })
    const [instructed, source, target, fee] = [
      quote.instructed_amount,
      quote.source_amount,
      quote.target_amount,
      quote.fee,
    ].map(cents)
    expect(instructed).toBe(this.amount)
    expect(fee! > 0n).toBe(true)
    // Same currency: net adds the fee on top, gross takes it out of the amount.
    if (this.strategy === "net") expect({ source, target }).toEqual({ source: this.amount + fee!, target: this.amount })
    else expect({ source, target }).toEqual({ source: this.amount, target: this.amount - fee! })
    expect(quote).toMatchObject({ from_profile: { id: from }, to_profile: { id: to }, fee_strategy: this.strategy })
    model.quotes.push({ instructed: this.amount, source: source!, expiresAt: model.now + quoteLifetimeMs, used: false })
    real.quoteIds.push(quote.id)
    checkInvariants(model, real)
  }
  toString = () => `Quote(from #${this.from}, to #${this.to}, ${dollars(this.amount)} USD, ${this.strategy})`
}

/** A new business key, or the key of an earlier payment (by position). */
type KeyChoice = { readonly fresh: true } | { readonly reuse: number }

class Pay implements Command {
  constructor(
    readonly quote: number,
    readonly key: KeyChoice,
  ) {}
  check = (model: Readonly<Model>) => model.quotes.length > 0 && ("fresh" in this.key || model.payments.length > 0)
  async run(model: Model, real: Real) {
    const index = this.quote % model.quotes.length
    const quote = model.quotes[index]!
    const earlier = "reuse" in this.key ? this.key.reuse % model.payments.length : undefined
    const key = earlier === undefined ? `key-${model.keys}` : model.payments[earlier]!.key
    if (earlier === undefined) model.keys += 1
    const attempt = payQuote(real.engine, real.actor, real.companyId, real.quoteIds[index]!, key)
    if (earlier !== undefined) {
      if (model.payments[earlier]!.quote === index) {
        const again = await attempt
        expect({ created: again.created, id: again.payment.id }).toEqual({
          created: false,
          id: real.paymentIds[earlier],
        })
      } else {
        await expectRefusal(attempt, "invalid", "idempotency_key", "has already been taken")
      }
    } else if (model.now >= quote.expiresAt) {
      await expectRefusal(attempt, "invalid", "payment_quote_id", "Quote has expired")
    } else if (quote.used) {
      await expectRefusal(attempt, "invalid", "payment_quote_id", "Quote has already been used")
    } else {
      const { payment, created } = await attempt
      expect({ created, status: payment.status, quote: payment.quote_id }).toEqual({
        created: true,
        status: "pending",
        quote: real.quoteIds[index],
      })
      quote.used = true
      model.payments.push({ key, quote: index, status: "pending" })
      real.paymentIds.push(payment.id)
    }
    checkInvariants(model, real)
  }
  toString = () => `Pay(quote #${this.quote}, ${"fresh" in this.key ? "new key" : `key of payment #${this.key.reuse}`})`
}

class Cancel implements Command {
  constructor(readonly payment: number) {}
  check = (model: Readonly<Model>) => model.payments.length > 0
  async run(model: Model, real: Real) {
    const index = this.payment % model.payments.length
    const payment = model.payments[index]!
    const attempt = real.engine.payments.cancel(real.actor, real.companyId, real.paymentIds[index]!)
    if (payment.status === "pending") {
      expect((await attempt).status).toBe("cancelled")
      payment.status = "cancelled"
    } else {
      await expectRefusal(attempt, "invalid", "status", `Payment cannot be cancelled in status ${payment.status}`)
    }
    checkInvariants(model, real)
  }
  toString = () => `Cancel(payment #${this.payment})`
}

/** Runs due jobs: in one runner, or in two engines racing as two processes would, then once more. */
class RunJobs implements Command {
  constructor(readonly racing: boolean) {}
  check = () => true
  async run(model: Model, real: Real) {
    const runners = this.racing ? [real.engine, real.harness.secondEngine()] : [real.engine]
    const reports = await Promise.all(runners.map((engine) => engine.jobs.runDue()))
    reports.push(await real.engine.jobs.runDue())
    expect(reports.map((r) => r.failed)).toEqual(reports.map(() => 0))
    for (const payment of model.payments) {
      if (payment.status === "pending") {
        const quote = model.quotes[payment.quote]!
        payment.status = failsAtProvider(dollars(quote.instructed)) ? "failed" : "completed"
      }
    }
    const listed = await real.engine.payments.list(real.actor, real.companyId, { per_page: 100 })
    expect(listed.data.map((p) => p.status)).toEqual(model.payments.map((p) => p.status))
    checkInvariants(model, real)
  }
  toString = () => (this.racing ? "RunJobs(two racing runners)" : "RunJobs")
}

class Advance implements Command {
  constructor(readonly minutes: number) {}
  check = () => true
  async run(model: Model, real: Real) {
    real.harness.clock.advance(this.minutes * 60 * 1000)
    model.now += this.minutes * 60 * 1000
    checkInvariants(model, real)
  }
  toString = () => `Advance(${this.minutes} min)`
}

/** Lists a page of payments, all or of one status: the model's, in creation order, each quote once. */
class ListPayments implements Command {
  constructor(
    readonly status: Status | undefined,
    readonly page: number,
    readonly perPage: number,
  ) {}
  check = () => true
  async run(model: Model, real: Real) {
    const expected = model.payments
      .map((p, i) => ({ id: real.paymentIds[i]!, status: p.status, quote: real.quoteIds[p.quote]! }))
      .filter((p) => this.status === undefined || p.status === this.status)
    const list = await real.engine.payments.list(real.actor, real.companyId, {
      page: this.page,
      per_page: this.perPage,
      ...(this.status === undefined ? {} : { status: this.status }),
    })
    const from = (this.page - 1) * this.perPage
    expect(list.data.map((p) => ({ id: p.id, status: p.status, quote: p.quote_id }))).toEqual(
      expected.slice(from, from + this.perPage),
    )
    expect(list.meta.total_records).toBe(expected.length)
    // A quote is never used twice, whatever the model thinks.
    const all = await real.engine.payments.list(real.actor, real.companyId, { per_page: 100 })
    const quotes = all.data.map((p) => p.quote_id)
    expect(new Set(quotes).size).toBe(quotes.length)
    checkInvariants(model, real)
  }
  toString = () => `ListPayments(${this.status ?? "any status"}, page ${this.page}, per_page ${this.perPage})`
}

/** Whole cents from 1.00 up (above the 0.25 ACH fee, so gross quotes are priced); one in four fails at the provider. */
const amount = fc.oneof(
  { arbitrary: fc.bigInt({ min: 100n, max: 10_000_00n }), weight: 3 },
  { arbitrary: fc.bigInt({ min: 1n, max: 9_999n }).map((units) => units * 100n + 13n), weight: 1 },
)
const keyChoice: fc.Arbitrary<KeyChoice> = fc.oneof(
  { arbitrary: fc.constant({ fresh: true } as const), weight: 3 },
  { arbitrary: fc.nat(9).map((reuse) => ({ reuse })), weight: 1 },
)
const statuses: ReadonlyArray<Status> = ["pending", "completed", "failed", "cancelled"]

const quoteCommand = fc
  .tuple(fc.nat(5), fc.nat(5), amount, fc.constantFrom("net" as const, "gross" as const))
  .map(([from, to, a, strategy]) => new Quote(from, to, a, strategy))
const payCommand = fc.tuple(fc.nat(20), keyChoice).map(([q, k]) => new Pay(q, k))

const commands: Array<fc.Arbitrary<Command>> = [
  fc.constant(new LinkFunding()),
  fc.bigInt({ min: 1000n, max: 10n ** 17n - 1n }).map((n) => new AddRecipientAccount(String(n))),
  quoteCommand,
  quoteCommand,
  payCommand,
  payCommand,
  payCommand,
  fc.nat(20).map((p) => new Cancel(p)),
  fc.boolean().map((racing) => new RunJobs(racing)),
  fc.constantFrom(1, 5, 16).map((m) => new Advance(m)),
  fc
    .tuple(
      fc.option(fc.constantFrom(...statuses), { nil: undefined }),
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 1, max: 4 }),
    )
    .map(([status, page, perPage]) => new ListPayments(status, page, perPage)),
]

/**
 * Random sequences of funding links, recipient accounts, quotes, payments, cancels, job runs,
 * clock moves and lists for one fresh company per run, checked against the model after every
 * command. One storage serves every run.
 */
export const runPaymentModel = async (harness: Harness, options: Pick<ContractSuiteOptions, "fastCheck">) => {
  const { numRuns = defaultNumRuns, seed, path, replayPath } = options.fastCheck ?? {}
  const setup = async () => {
    const paying = await payingCompany(harness)
    const model: Model = {
      funding: 1,
      accounts: 1,
      quotes: [],
      payments: [],
      keys: 0,
      now: harness.clock.now().getTime(),
    }
    const real: Real = {
      harness,
      engine: harness.engine,
      actor: paying.actor,
      companyId: paying.company.id,
      entityId: paying.entity.id,
      recipientId: paying.recipient.id,
      fromProfiles: [paying.from],
      toProfiles: [paying.to],
      quoteIds: [],
      paymentIds: [],
    }
    return { model, real }
  }
  const sequences = fc.commands(commands, { maxCommands: 40, size: "max", ...(replayPath ? { replayPath } : {}) })
  await fc.assert(
    fc.asyncProperty(sequences, (sequence) => fc.asyncModelRun(setup, sequence)),
    { numRuns, ...(seed === undefined ? {} : { seed }), ...(path === undefined ? {} : { path }) },
  )
}

/** The model-based run of money movement, as a group of one test. */
export const paymentModelScenarios: ScenarioGroup = {
  title: "model of payments",
  scenarios: [
    {
      id: "model.quotes-and-payments",
      title:
        "random link, account, quote, pay, cancel, job, clock and list sequences agree with a tiny model: a quote pays once, no payment is submitted twice or after a cancel, completed equals paid",
      timeout: 180_000,
      run: runPaymentModel,
    },
  ],
}
