import {
  type BatchStatus,
  batchLifetimeMs,
  batchStatuses,
  type Engine,
  type PaymentBatchId,
  type PaymentId,
  type PaymentStatusValue,
} from "@payments-engine/core"
import { batchMessages } from "@payments-engine/core/effect"
import fc from "fast-check"
import { expect } from "vitest"
import { batchEventsOf, createBatch, payInBatch } from "./batch-fixtures.ts"
import { expectRefusal, type Harness } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import type { ContractSuiteOptions } from "./options.ts"
import { answered, cents, type PayingCompany, payingCompany, submissionsOf } from "./payment-fixtures.ts"
import { failsAtProvider } from "./test-providers.ts"

/*
 * The model: the company's batches in creation order (status, when made) and its payments in
 * creation order (which batch, whether still in it, amount in cents, what its quote said the
 * payer pays, status), and the engine's clock. Nothing else: no ids, no timestamps, no lanes.
 * Its rules are the decisions': a building batch takes payments and gives them back on cancel;
 * processing needs at least one; a job run finishes every processing batch's payments (a .13
 * amount fails) and expires a batch still building seven days after it was made, cancelling
 * what it held; a batch's counts are its payments', and a finished batch says so once.
 */

/** Runs of the batch model unless `fastCheck.numRuns` says otherwise: each run pays real batches. */
export const batchModelRuns = 5

type Status = Exclude<PaymentStatusValue, "processing">

interface BatchModel {
  status: BatchStatus
  readonly createdAt: number
}

interface PaymentModel {
  readonly batch: number
  /** False once cancelled while its batch was building: it left the batch. */
  inBatch: boolean
  readonly instructed: bigint
  /** What the payer pays, as its first quote said; a repriced quote must say the same. */
  readonly source: bigint
  status: Status
}

interface Model {
  readonly batches: Array<BatchModel>
  readonly payments: Array<PaymentModel>
  now: number
  keys: number
}

interface Real {
  readonly harness: Harness
  readonly engine: Engine
  readonly paying: PayingCompany
  readonly batchIds: Array<PaymentBatchId>
  readonly paymentIds: Array<PaymentId>
}

type Command = fc.AsyncCommand<Model, Real>

const dollars = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, "0")}`

const finished = (status: BatchStatus) =>
  status === "completed" || status === "completed_with_failures" || status === "failed"

/** The model's counts of a batch: its payments, and those that succeeded or failed. */
const countsOf = (model: Model, batch: number) => {
  const mine = model.payments.filter((p) => p.batch === batch && p.inBatch)
  return {
    total_count: mine.length,
    succeeded_count: mine.filter((p) => p.status === "completed").length,
    failed_count: mine.filter((p) => p.status === "failed").length,
  }
}

/**
 * After every command: each batch's status and counts; every payment's status and batch; one
 * completion event per finished batch, a cancellation event per cancelled payment and no other
 * payment event; and what the provider was asked: a payment submitted once if it finished (for
 * its first quote's amount), never otherwise.
 */
const checkInvariants = async (model: Model, real: Real) => {
  const { engine, paying } = real
  for (const [i, batch] of model.batches.entries()) {
    const read = await engine.paymentBatches.get(paying.actor, paying.company.id, real.batchIds[i]!)
    expect(
      {
        batch: i,
        status: read.status,
        total_count: read.total_count,
        succeeded_count: read.succeeded_count,
        failed_count: read.failed_count,
      },
      `batch #${i}`,
    ).toEqual({ batch: i, status: batch.status, ...countsOf(model, i) })
  }
  const listed = await engine.payments.list(paying.actor, paying.company.id, { per_page: 100 })
  expect(listed.data.map((p) => [p.id, p.status])).toEqual(model.payments.map((p, i) => [real.paymentIds[i], p.status]))
  const inBatches = await Promise.all(
    real.batchIds.map(async (id) =>
      (await engine.payments.list(paying.actor, paying.company.id, { payment_batch_id: id, per_page: 100 })).data.map(
        (p) => p.id,
      ),
    ),
  )
  // A payment cancelled by its batch's expiry stays in it; one cancelled by the user left it.
  expect(inBatches).toEqual(
    model.batches.map((_, b) =>
      model.payments.flatMap((p, i) => (p.batch === b && p.inBatch ? [real.paymentIds[i]] : [])),
    ),
  )

  const events = await batchEventsOf(real.harness, paying.company.id)
  const completions = events.filter((e) => e.event === "PaymentBatchCompletedEvent").map((e) => e.resource_id)
  expect([...completions].sort(), "PaymentBatchCompletedEvent per batch").toEqual(
    real.batchIds.filter((_, i) => finished(model.batches[i]!.status)).sort(),
  )
  const cancellations = events.filter((e) => e.event === "PaymentEvents::CancelledEvent").map((e) => e.resource_id)
  expect([...cancellations].sort(), "PaymentEvents::CancelledEvent per payment").toEqual(
    real.paymentIds.filter((_, i) => model.payments[i]!.status === "cancelled").sort(),
  )
  expect(events.length, "no other event of a batch's payments").toBe(completions.length + cancellations.length)

  const submitted = submissionsOf(real.harness.paymentProvider.submissions, real.paymentIds)
  const decided = answered(submitted)
  for (const [i, payment] of model.payments.entries()) {
    const calls = decided.filter((s) => s.paymentId === real.paymentIds[i])
    const asked = calls.map((s) => ({ answer: s.answer, source: cents(s.sourceAmount) }))
    const expected =
      payment.status === "completed" || payment.status === "failed"
        ? [{ answer: payment.status, source: payment.source }]
        : []
    expect({ payment: i, asked }, `what the provider was asked for payment #${i}`).toEqual({
      payment: i,
      asked: expected,
    })
  }
}

class CreateBatch implements Command {
  check = () => true
  async run(model: Model, real: Real) {
    const { batch, created } = await createBatch(real.engine, real.paying)
    expect({ created, status: batch.status, total: batch.total_count }).toEqual({
      created: true,
      status: "building",
      total: 0,
    })
    model.batches.push({ status: "building", createdAt: model.now })
    real.batchIds.push(batch.id)
    await checkInvariants(model, real)
  }
  toString = () => "CreateBatch"
}

class AddPayment implements Command {
  constructor(
    readonly batch: number,
    readonly amount: bigint,
  ) {}
  check = (model: Readonly<Model>) => model.batches.length > 0
  async run(model: Model, real: Real) {
    const index = this.batch % model.batches.length
    const key = `key-${model.keys}`
    model.keys += 1
    const adding = payInBatch(real.engine, real.paying, real.batchIds[index]!, Number(dollars(this.amount)), key)
    if (model.batches[index]!.status === "building") {
      const { quote, payment } = await adding
      expect(payment.status).toBe("pending")
      model.payments.push({
        batch: index,
        inBatch: true,
        instructed: this.amount,
        source: cents(quote.source_amount),
        status: "pending",
      })
      real.paymentIds.push(payment.id)
    } else {
      await expectRefusal(adding, "invalid", "payment_batch_id", batchMessages.full)
    }
    await checkInvariants(model, real)
  }
  toString = () => `AddPayment(batch #${this.batch}, ${dollars(this.amount)} USD)`
}

class CancelPayment implements Command {
  constructor(readonly payment: number) {}
  check = (model: Readonly<Model>) => model.payments.length > 0
  async run(model: Model, real: Real) {
    const index = this.payment % model.payments.length
    const payment = model.payments[index]!
    const batch = model.batches[payment.batch]!
    const cancelling = real.engine.payments.cancel(real.paying.actor, real.paying.company.id, real.paymentIds[index]!)
    if (payment.status === "pending" && batch.status === "building") {
      expect((await cancelling).status).toBe("cancelled")
      payment.status = "cancelled"
      payment.inBatch = false
    } else if (payment.status === "pending") {
      await expectRefusal(cancelling, "invalid", "status", batchMessages.paymentInRunningBatch)
    } else {
      await expectRefusal(cancelling, "invalid", "status", `Payment cannot be cancelled in status ${payment.status}`)
    }
    await checkInvariants(model, real)
  }
  toString = () => `CancelPayment(payment #${this.payment})`
}

class Process implements Command {
  constructor(readonly batch: number) {}
  check = (model: Readonly<Model>) => model.batches.length > 0
  async run(model: Model, real: Real) {
    const index = this.batch % model.batches.length
    const batch = model.batches[index]!
    const processing = real.engine.paymentBatches.process(
      real.paying.actor,
      real.paying.company.id,
      real.batchIds[index]!,
    )
    if (batch.status === "building" && countsOf(model, index).total_count > 0) {
      expect((await processing).status).toBe("processing")
      batch.status = "processing"
    } else if (batch.status === "building") {
      await expectRefusal(processing, "invalid", "status", batchMessages.empty)
    } else if (batch.status === "processing") {
      await expectRefusal(processing, "conflict", "status", batchMessages.alreadyProcessing)
    } else {
      await expectRefusal(processing, "invalid", "status", batchMessages.notBuilding)
    }
    await checkInvariants(model, real)
  }
  toString = () => `Process(batch #${this.batch})`
}

/** Runs every due job: processing batches run to their end, building ones past seven days expire. */
const runJobs = async (model: Model, real: Real) => {
  expect((await real.engine.jobs.runDue()).failed).toBe(0)
  settle(model)
}

/** What a run of every due job leaves: the model's side of {@link runJobs}. */
const settle = (model: Model) => {
  for (const [b, batch] of model.batches.entries()) {
    const held = model.payments.filter((p) => p.batch === b && p.inBatch)
    if (batch.status === "building" && model.now >= batch.createdAt + batchLifetimeMs) {
      batch.status = "expired"
      for (const payment of held) payment.status = "cancelled"
    } else if (batch.status === "processing") {
      for (const payment of held) payment.status = failsAtProvider(dollars(payment.instructed)) ? "failed" : "completed"
      const failed = held.filter((p) => p.status === "failed").length
      batch.status = failed === 0 ? "completed" : failed === held.length ? "failed" : "completed_with_failures"
    }
  }
}

/**
 * A runner dies in the middle of a payment: the provider makes the next payment submitted, and
 * its answer never comes back (its job fails, as a crashed run is counted). A minute later the
 * job runs again and asks the provider before submitting: every payment ends as if nothing had
 * happened, each submitted once.
 */
class CrashRunner implements Command {
  check = (model: Readonly<Model>) => model.batches.some((b) => b.status === "processing")
  async run(model: Model, real: Real) {
    real.harness.paymentProvider.loseNextAnswer()
    expect((await real.engine.jobs.runDue()).failed).toBe(1)
    real.harness.clock.advance(60_000)
    model.now += 60_000
    expect((await real.engine.jobs.runDue()).failed).toBe(0)
    settle(model)
    await checkInvariants(model, real)
  }
  toString = () => "CrashRunner(a payment's answer lost, its job run again a minute later)"
}

class RunJobs implements Command {
  check = () => true
  async run(model: Model, real: Real) {
    await runJobs(model, real)
    await checkInvariants(model, real)
  }
  toString = () => "RunJobs"
}

/**
 * Moves the engine's clock, then runs what fell due. The steps never add up to within a minute
 * of seven days, whose boundary `batches.expiry` tests: a runner that keeps due times in the
 * database's time is off by the wall clock's milliseconds. The jobs run at once because
 * graphile-worker's runner moves its waiting jobs by the clock's move at its next run, also the
 * jobs queued after the move, which would then fall due early.
 */
class Advance implements Command {
  constructor(readonly minutes: number) {}
  check = () => true
  async run(model: Model, real: Real) {
    real.harness.clock.advance(this.minutes * 60_000)
    model.now += this.minutes * 60_000
    await runJobs(model, real)
    await checkInvariants(model, real)
  }
  toString = () => `Advance(${this.minutes} min, then RunJobs)`
}

/** Lists the company's batches, all or of one status: the model's, in creation order. */
class ListBatches implements Command {
  constructor(readonly status: BatchStatus | undefined) {}
  check = () => true
  async run(model: Model, real: Real) {
    const listed = await real.engine.paymentBatches.list(real.paying.actor, real.paying.company.id, {
      per_page: 100,
      ...(this.status === undefined ? {} : { status: this.status }),
    })
    const expected = real.batchIds.filter(
      (_, i) => this.status === undefined || model.batches[i]!.status === this.status,
    )
    expect(listed.data.map((b) => b.id)).toEqual(expected)
    expect(listed.meta.total_records).toBe(expected.length)
    await checkInvariants(model, real)
  }
  toString = () => `ListBatches(${this.status ?? "any status"})`
}

/** Whole cents from 1.00 up; one in four fails at the provider. */
const amount = fc.oneof(
  { arbitrary: fc.bigInt({ min: 100n, max: 1_000_00n }), weight: 3 },
  { arbitrary: fc.bigInt({ min: 1n, max: 999n }).map((units) => units * 100n + 13n), weight: 1 },
)
const addPayment = fc.tuple(fc.nat(5), amount).map(([batch, a]) => new AddPayment(batch, a))

const commands: Array<fc.Arbitrary<Command>> = [
  fc.constant(new CreateBatch()),
  fc.constant(new CreateBatch()),
  addPayment,
  addPayment,
  addPayment,
  fc.nat(30).map((p) => new CancelPayment(p)),
  fc.nat(5).map((b) => new Process(b)),
  fc.nat(5).map((b) => new Process(b)),
  fc.constant(new RunJobs()),
  fc.constant(new CrashRunner()),
  // A quote's lifetime and a bit, a day and an hour, seven days and a minute.
  fc
    .constantFrom(16, 25 * 60, 7 * 24 * 60 + 1)
    .map((m) => new Advance(m)),
  fc.option(fc.constantFrom(...batchStatuses), { nil: undefined }).map((s) => new ListBatches(s)),
]

/**
 * Random sequences (up to 40) of batch creations, payments added and cancelled, processing, job
 * runs, runners dying mid-payment, clock moves and lists for one fresh company per run, which starts with one empty batch,
 * checked against the model after every command. One storage and one engine (two lanes, so a batch runs through lanes it outgrows)
 * serve every run.
 */
export const runBatchModel = async (harness: Harness, options: Pick<ContractSuiteOptions, "fastCheck">) => {
  const { numRuns = batchModelRuns, seed, path, replayPath } = options.fastCheck ?? {}
  const engine = harness.batchEngine({ concurrency: 2 })
  // The engine's runner exists before the clock first moves (graphile-worker's runner follows the
  // engine's clock from its first run on).
  await engine.jobs.runDue()
  const setup = async () => {
    const paying = await payingCompany(harness)
    const { batch } = await createBatch(engine, paying)
    const now = harness.clock.now().getTime()
    const model: Model = { batches: [{ status: "building", createdAt: now }], payments: [], now, keys: 0 }
    const real: Real = { harness, engine, paying, batchIds: [batch.id], paymentIds: [] }
    return { model, real }
  }
  const sequences = fc.commands(commands, { maxCommands: 40, size: "max", ...(replayPath ? { replayPath } : {}) })
  await fc.assert(
    fc.asyncProperty(sequences, (sequence) => fc.asyncModelRun(setup, sequence)),
    { numRuns, ...(seed === undefined ? {} : { seed }), ...(path === undefined ? {} : { path }) },
  )
}

/** The model-based run of payment batches, as a group of one test. */
export const batchModelScenarios: ScenarioGroup = {
  title: "model of payment batches",
  scenarios: [
    {
      id: "model.payment-batches",
      title:
        "random batch, add, cancel, process, job, crashed runner, clock and list sequences agree with a tiny model: exact counts, one completion event per finished batch, each payment submitted once when its batch runs",
      timeout: 180_000,
      run: runBatchModel,
    },
  ],
}
