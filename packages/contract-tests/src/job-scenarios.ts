import type { Awaitable } from "@payments-engine/core"
import {
  brandId,
  type CompanyId,
  createEngine,
  type EventRecord,
  type JobHandlers,
  type JobRunnerLog,
  type PaymentId,
  type PaymentProvider,
  type Repositories,
  type Storage,
  type WorkspaceId,
} from "@payments-engine/core"
import { maxJobAttempts } from "@payments-engine/core/effect"
import { expect, vi } from "vitest"
import type { Harness } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import {
  bankAccountRow,
  payingCompany,
  paymentRow,
  profileRow,
  quoteAndPay,
  runAllDue,
  storedPayment,
  submissionsOf,
  withRepository,
  wrapStorage,
} from "./payment-fixtures.ts"
import { counterIds, plainHasher, processTag, testServerSecret } from "./test-ports.ts"
import { testBeneficiary } from "./test-providers.ts"

/** A kind of job only these scenarios queue; runners made for them run nothing else. */
const testKind = "contract_test_job"
/** A second kind, in a lane of its own (`jobs.lanes`). */
const slowTestKind = "contract_test_slow_job"
const tenMinutes = 10 * 60 * 1000

/**
 * A runner of the storage for {@link testKind} jobs, whose handler records each run's payload
 * and fails while `fails(payload)` says so.
 */
export const testRunner = (harness: Harness, fails: (payload: TestPayload) => boolean = () => false) => {
  const runs: Array<string> = []
  const logged: Array<Parameters<JobRunnerLog>[0]> = []
  const handlers: JobHandlers = {
    kinds: [{ kind: testKind }],
    run: async (kind, payload) => {
      const { name } = payload as TestPayload
      runs.push(`${kind}:${name}`)
      if (fails(payload as TestPayload)) throw new Error(`test: ${name} fails`)
    },
  }
  const runner = harness.storage.createJobRunner(handlers, { clock: harness.clock, log: (line) => logged.push(line) })
  return {
    runner,
    runs: () => runs.map((run) => run.slice(testKind.length + 1)),
    /** What the runner logged other than a job done. */
    troubles: () => logged.filter((line) => !("outcome" in line) || line.outcome !== "done"),
  }
}

interface TestPayload {
  readonly name: string
}

/** Queues a test job in its own transaction, due `delayMs` after the engine's now. */
export const queueTestJob = (
  harness: Harness,
  name: string,
  options: {
    readonly delayMs?: number
    readonly key?: string
    readonly maxAttempts?: number
    readonly workspaceId?: WorkspaceId
    readonly kind?: string
    readonly queue?: string
  } = {},
  tx?: Repositories,
) => {
  const now = harness.clock.now()
  const job = {
    id: brandId("job", `job_${name}_${now.getTime()}`),
    kind: options.kind ?? testKind,
    payload: JSON.stringify({ name }),
    run_at: new Date(now.getTime() + (options.delayMs ?? 0)).toISOString(),
    key: options.key ?? null,
    max_attempts: options.maxAttempts ?? 1,
    created_at: now.toISOString(),
    workspace_id: options.workspaceId ?? null,
    ...(options.queue === undefined ? {} : { queue: options.queue }),
  }
  return tx ? tx.jobs.enqueue(job) : harness.storage.transaction((each) => each.jobs.enqueue(job))
}

const eventsOf = (harness: Harness, companyId: CompanyId) => harness.reader.eventsOfCompany(companyId)

/** Fails appending events of that name, as a database that breaks mid-transaction would. */
const failingAppend = (storage: Storage, event: string) =>
  wrapStorage(storage, (tx: Repositories) =>
    withRepository(tx, "events", {
      ...tx.events,
      append: (row: EventRecord) =>
        row.event === event ? Promise.reject(new Error(`test: cannot write ${event}`)) : tx.events.append(row),
      appendListingEndpoints: (row: EventRecord) =>
        row.event === event
          ? Promise.reject(new Error(`test: cannot write ${event}`))
          : tx.events.appendListingEndpoints(row),
    }),
  )

/** The job queue and the event outbox. */
export const jobScenarios: ScenarioGroup = {
  title: "jobs and events",
  scenarios: [
    {
      id: "jobs.run-once",
      title:
        "a job queued by a committed transaction runs once with its payload, one of a rolled-back transaction never; a second job with a waiting job's key adds nothing; a job due later runs once the engine's clock reaches it",
      run: async (harness) => {
        const { clock } = harness
        const { runner, runs, troubles } = testRunner(harness)
        const reason = new Error("rolled back on purpose")
        await expect(
          harness.storage.transaction(async (tx) => {
            await queueTestJob(harness, "rolled-back", {}, tx)
            throw reason
          }),
        ).rejects.toBe(reason)
        await queueTestJob(harness, "first")
        await queueTestJob(harness, "keyed", { key: "k1" })
        await queueTestJob(harness, "keyed-again", { key: "k1" })
        await queueTestJob(harness, "later", { delayMs: 60_000 })
        expect(await runner.runDue()).toEqual({ ran: 2, failed: 0 })
        expect(runs().sort()).toEqual(["first", "keyed"])
        expect(await runner.runDue()).toEqual({ ran: 0, failed: 0 })
        clock.advance(59_000)
        expect(await runner.runDue()).toEqual({ ran: 0, failed: 0 })
        clock.advance(1000)
        expect(await runner.runDue()).toEqual({ ran: 1, failed: 0 })
        // Once the keyed job has run, the key is free again.
        await queueTestJob(harness, "keyed-later", { key: "k1" })
        expect(await runner.runDue()).toEqual({ ran: 1, failed: 0 })
        expect(runs().sort()).toEqual(["first", "keyed", "keyed-later", "later"])
        // A job that ran and is not settled (still queued) would be given up later as interrupted.
        expect(troubles()).toEqual([])
        await runner.stop()
      },
    },
    {
      id: "jobs.lanes",
      title:
        "a started runner runs each lane's jobs in that lane's own slots, each as a slot frees: a lane whose slots are held by jobs that do not end holds back no other lane's job, and a job of a queue does not start while another of its queue runs, though a job of no queue runs beside it",
      run: async (harness) => {
        const held: Array<() => void> = []
        const started: Array<string> = []
        const ended: Array<string> = []
        const handlers: JobHandlers = {
          kinds: [
            { kind: slowTestKind, lane: "slow" },
            { kind: testKind, lane: "fast" },
          ],
          run: async (_kind, payload) => {
            const { name } = payload as TestPayload
            started.push(name)
            // The first job of each lane holds its slot until released, as a silent receiver would.
            if (name.endsWith("-held")) await new Promise<void>((resolve) => held.push(resolve))
            ended.push(name)
          },
        }
        const runner = harness.storage.createJobRunner(handlers, { clock: harness.clock, lanes: { slow: 1, fast: 2 } })
        await queueTestJob(harness, "slow-held", { kind: slowTestKind })
        await queueTestJob(harness, "slow-next", { kind: slowTestKind })
        await queueTestJob(harness, "queued-held", { queue: "q1" })
        await queueTestJob(harness, "queued-next", { queue: "q1" })
        await queueTestJob(harness, "free", {})
        runner.start()
        try {
          // The fast lane's second slot runs the job of no queue while the slow lane's one slot
          // and the queue q1 are held; neither's next job has started. Each lane starts on its
          // own, so the slow one may take its job after the fast one has ended "free".
          await vi.waitFor(
            () => {
              expect(ended).toContain("free")
              expect(started).toEqual(expect.arrayContaining(["queued-held", "slow-held"]))
            },
            { timeout: 15_000, interval: 20 },
          )
          expect([...started].sort()).toEqual(["free", "queued-held", "slow-held"])
        } finally {
          for (let look = 0; look < 750 && (held.length > 0 || started.length < 5); look += 1) {
            for (const release of held.splice(0)) release()
            await new Promise((resolve) => setTimeout(resolve, 20))
          }
          await vi.waitFor(() => expect(ended).toHaveLength(5), { timeout: 15_000, interval: 20 })
          await runner.stop()
        }
        expect(ended.sort()).toEqual(["free", "queued-held", "queued-next", "slow-held", "slow-next"])
      },
    },
    {
      id: "jobs.remove-unstarted",
      title:
        "jobs removed by key before they run never run; a removal rolled back removes nothing; a job that has already run once is not removed",
      run: async (harness) => {
        const { clock } = harness
        let failed = false
        const { runner, runs } = testRunner(harness, ({ name }) => {
          if (name !== "failing-once" || failed) return false
          failed = true
          return true
        })
        for (const name of ["a", "b", "c", "d"]) await queueTestJob(harness, name, { key: `remove:${name}` })
        await queueTestJob(harness, "failing-once", { key: "remove:failing", maxAttempts: 2 })
        const reason = new Error("rolled back on purpose")
        await expect(
          harness.storage.transaction(async (tx) => {
            await tx.jobs.removeUnstarted(["remove:c"])
            throw reason
          }),
        ).rejects.toBe(reason)
        await harness.storage.transaction((tx) => tx.jobs.removeUnstarted(["remove:a", "remove:b", "remove:none"]))
        await harness.storage.transaction((tx) => tx.jobs.removeUnstarted([]))
        expect(await runner.runDue()).toEqual({ ran: 3, failed: 1 })
        expect(runs().sort()).toEqual(["c", "d", "failing-once"])
        // It failed once and waits for its second run: started, so not removed.
        await harness.storage.transaction((tx) => tx.jobs.removeUnstarted(["remove:failing"]))
        clock.advance(60 * 60 * 1000)
        expect(await runner.runDue()).toEqual({ ran: 1, failed: 0 })
        expect(runs().filter((name) => name === "failing-once")).toHaveLength(2)
        await runner.stop()
      },
    },
    {
      id: "jobs.retry-and-fail",
      title:
        "a failed job runs again later, by the engine's clock, until it succeeds or has used its attempts; a payment whose provider is down is retried the same way and submitted at most its attempts",
      run: async (harness) => {
        const { storage, engine, clock, paymentProvider } = harness
        const failures = new Map([["recovers", 2]])
        const { runner, runs } = testRunner(harness, ({ name }) => {
          const left = failures.get(name) ?? Number.POSITIVE_INFINITY
          failures.set(name, left - 1)
          return left > 0
        })
        await queueTestJob(harness, "recovers", { maxAttempts: 3 })
        await queueTestJob(harness, "never", { maxAttempts: 3 })
        expect(await runner.runDue()).toEqual({ ran: 2, failed: 2 })
        expect(await runner.runDue()).toEqual({ ran: 0, failed: 0 })
        clock.advance(tenMinutes)
        expect(await runner.runDue()).toEqual({ ran: 2, failed: 2 })
        clock.advance(tenMinutes)
        expect(await runner.runDue()).toEqual({ ran: 2, failed: 1 })
        clock.advance(24 * 60 * 60 * 1000)
        expect(await runner.runDue()).toEqual({ ran: 0, failed: 0 })
        expect(runs().filter((name) => name === "recovers")).toHaveLength(3)
        expect(runs().filter((name) => name === "never")).toHaveLength(3)
        await runner.stop()

        // Through the engine: a provider that is down for a while, and one that never comes back.
        const paying = await payingCompany(harness)
        const { payment: recovers } = await quoteAndPay(harness, paying, 20, "recovers")
        const { payment: never } = await quoteAndPay(harness, paying, 21, "never")
        paymentProvider.makeUnavailable(recovers.id, 2)
        paymentProvider.makeUnavailable(never.id, 1000)
        const answers = (id: string) => submissionsOf(paymentProvider.submissions, [id]).map((s) => s.answer)
        expect((await runAllDue(engine)).failed).toBe(2)
        expect(await storedPayment(storage, recovers.id)).toMatchObject({ status: "processing" })
        expect(await runAllDue(engine)).toEqual({ ran: 0, failed: 0 })
        clock.advance(tenMinutes)
        await runAllDue(engine)
        expect(answers(recovers.id)).toEqual(["unavailable", "unavailable"])
        clock.advance(tenMinutes)
        await runAllDue(engine)
        expect(answers(recovers.id)).toEqual(["unavailable", "unavailable", "completed"])
        expect(await storedPayment(storage, recovers.id)).toMatchObject({ status: "completed" })
        for (let i = 0; i < maxJobAttempts + 2; i++) {
          clock.advance(tenMinutes)
          await runAllDue(engine)
        }
        expect(answers(never.id)).toEqual(Array.from({ length: maxJobAttempts }, () => "unavailable"))
        expect(answers(recovers.id)).toHaveLength(3)
        expect((await storedPayment(storage, never.id))?.status).not.toBe("completed")
      },
    },
    {
      id: "events.outbox",
      title:
        "events are written in the transaction of the change they report, listed in order per company, and none survive a rollback",
      run: async (harness) => {
        const { engine, storage, clock } = harness
        const paying = await payingCompany(harness)
        const { actor, company, recipient, entity } = paying
        const { payment } = await quoteAndPay(harness, paying, 7, "e")
        const other = await payingCompany(harness)
        await runAllDue(engine)
        const events = await eventsOf(harness, company.id)
        expect(events.map((e) => [e.event, e.resource_id])).toEqual([
          ["entity.created", entity.id],
          ["BankAccountEvents::CreatedEvent", paying.account.id],
          ["PaymentProfileEvents::CreatedEvent", paying.to],
          ["BankAccountEvents::CreatedEvent", paying.funding.id],
          ["PaymentProfileEvents::CreatedEvent", paying.from],
          // Paid from a funding account, a debit profile: its start is reported.
          ["PaymentEvents::DebitInitiatedEvent", payment.id],
          ["PaymentEvents::CompletedEvent", payment.id],
        ])
        expect(events.every((e) => e.company_id === company.id && e.workspace_id === actor.workspaceId)).toBe(true)
        expect(JSON.parse(events[5]!.payload)).toMatchObject({
          event: "PaymentEvents::DebitInitiatedEvent",
          resource_id: payment.id,
          data: { id: payment.id, status: "processing" },
        })
        expect(JSON.parse(events[6]!.payload)).toMatchObject({
          event: "PaymentEvents::CompletedEvent",
          company_id: company.id,
          resource_id: payment.id,
          data: { id: payment.id, status: "completed" },
        })
        expect(await eventsOf(harness, other.company.id)).toHaveLength(5)

        // The port keeps the payload text as written.
        const ids = counterIds()
        const at = clock.now().toISOString()
        const row: EventRecord = {
          id: ids.next("evt"),
          workspace_id: actor.workspaceId,
          company_id: company.id,
          event: "Test::Event",
          resource_id: "res_1",
          payload: '{"amount":"10.10","big":12345678901234567890,"text":"é\\u00e9 ✓ \\"q\\""}',
          created_at: at,
        }
        await storage.transaction((tx) => tx.events.append(row))
        expect((await eventsOf(harness, company.id)).at(-1)).toEqual(row)
        // Id order is byte order, whatever the database's collation: "B" < "_" < "a".
        const base = ids.next("evt")
        const ordered = [`${base}_a`, `${base}__`, `${base}_B`].map((id) => brandId("evt", id))
        const orderCompany = ids.next("cmp")
        await storage.transaction(async (tx) => {
          for (const id of ordered) await tx.events.append({ ...row, id, company_id: orderCompany })
        })
        expect((await eventsOf(harness, orderCompany)).map((e) => e.id)).toEqual([...ordered].reverse())

        // A rolled-back transaction leaves neither its change nor its event.
        const account = bankAccountRow(
          ids.next("ba"),
          company.id,
          { owner_type: "Counterparty", owner_id: recipient.id },
          at,
        )
        const reason = new Error("rolled back on purpose")
        await expect(
          storage.transaction(async (tx) => {
            await tx.bankAccounts.insert(account)
            await tx.paymentProfiles.insert(profileRow(ids.next("pp"), account, "credit", "active", at))
            await tx.events.append({ ...row, id: ids.next("evt"), resource_id: account.id })
            throw reason
          }),
        ).rejects.toBe(reason)
        expect(await storage.transaction((tx) => tx.bankAccounts.find(company.id, account.id))).toBeUndefined()
        expect(await eventsOf(harness, company.id)).toHaveLength(8)

        // Through the engine: when the second event of a new bank account cannot be written, the
        // account and its first event are not there either.
        const broken = harness.engineOn(failingAppend(storage, "PaymentProfileEvents::CreatedEvent"))
        await expect(
          broken.bankAccounts.createForRecipient(actor, company.id, recipient.id, {
            entity_id: entity.id,
            beneficiary_details: testBeneficiary,
          }),
        ).rejects.toThrow()
        expect((await engine.bankAccounts.list(actor, company.id)).meta.total_records).toBe(2)
        expect(await eventsOf(harness, company.id)).toHaveLength(8)

        // When a payment's completed event cannot be written, the payment is not completed either;
        // the retry completes it with exactly one event.
        const { payment: second } = await quoteAndPay(harness, paying, 9, "e2")
        const stuck = harness.engineOn(failingAppend(storage, "PaymentEvents::CompletedEvent"))
        expect((await runAllDue(stuck)).failed).toBeGreaterThanOrEqual(1)
        expect(await storedPayment(storage, second.id)).toMatchObject({ status: "processing" })
        const eventsOfSecond = async () =>
          (await eventsOf(harness, company.id)).filter((e) => e.resource_id === second.id).map((e) => e.event)
        // Its start committed, with its debit-initiated event; its completion did not.
        expect(await eventsOfSecond()).toEqual(["PaymentEvents::DebitInitiatedEvent"])
        clock.advance(tenMinutes)
        await runAllDue(engine)
        expect(await storedPayment(storage, second.id)).toMatchObject({ status: "completed" })
        expect(await eventsOfSecond()).toEqual(["PaymentEvents::DebitInitiatedEvent", "PaymentEvents::CompletedEvent"])
      },
    },
    {
      id: "events.read-and-filter",
      title:
        "events are found by id and listed only in their workspace, newest first (then id descending), filtered by name, resource and created time (from inclusive, before exclusive), with their window and total",
      run: async (harness) => {
        const { storage } = harness
        const ids = counterIds()
        const [ws, wsB] = [ids.next("ws"), ids.next("ws")]
        const company = ids.next("cmp")
        const t = (second: number) => `2031-04-01T00:00:${String(second).padStart(2, "0")}.000Z`
        const row = (workspace: WorkspaceId, event: string, resource: string, at: string): EventRecord => ({
          id: ids.next("evt"),
          workspace_id: workspace,
          company_id: company,
          event,
          resource_id: resource,
          payload: `{"event":"${event}","resource_id":"${resource}"}`,
          created_at: at,
        })
        const created = row(ws, "PaymentEvents::CreatedEvent", "pay_1", t(1))
        const completed = row(ws, "PaymentEvents::CompletedEvent", "pay_1", t(3))
        const other = row(ws, "PaymentEvents::CreatedEvent", "pay_2", t(2))
        // Same time as `completed`, a later id: listed before it.
        const sameTime = row(ws, "entity.updated", "ent_1", t(3))
        const stranger = row(wsB, "PaymentEvents::CreatedEvent", "pay_1", t(4))
        await storage.transaction(async (tx) => {
          for (const event of [created, completed, other, sameTime, stranger]) await tx.events.append(event)
        })
        const events = <T>(call: (tx: Repositories["events"]) => Awaitable<T>) =>
          storage.transaction((tx) => call(tx.events))
        expect(await events((e) => e.find(ws, created.id))).toEqual(created)
        expect(await events((e) => e.find(wsB, created.id))).toBeUndefined()
        expect(await events((e) => e.find(ws, stranger.id))).toBeUndefined()
        const list = (filter: Parameters<Repositories["events"]["list"]>[1], offset = 0, limit = 10) =>
          events((e) => e.list(ws, filter, { offset, limit }))
        expect(await list({})).toEqual({ rows: [sameTime, completed, other, created], total: 4 })
        expect(await list({}, 1, 2)).toEqual({ rows: [completed, other], total: 4 })
        expect(await list({}, 4, 2)).toEqual({ rows: [], total: 4 })
        expect(await list({ resourceId: "pay_1" })).toEqual({ rows: [completed, created], total: 2 })
        expect(await list({ event: "PaymentEvents::CreatedEvent" })).toEqual({ rows: [other, created], total: 2 })
        expect(await list({ event: "PaymentEvents::CreatedEvent", resourceId: "pay_2" })).toEqual({
          rows: [other],
          total: 1,
        })
        expect(await list({ createdFrom: t(2), createdBefore: t(3) })).toEqual({ rows: [other], total: 1 })
        expect(await list({ createdFrom: t(3) })).toEqual({ rows: [sameTime, completed], total: 2 })
        expect(await list({ createdBefore: t(2) })).toEqual({ rows: [created], total: 1 })
        expect(await events((e) => e.list(wsB, {}, { offset: 0, limit: 10 }))).toEqual({ rows: [stranger], total: 1 })
        expect(await events((e) => e.list(ids.next("ws"), {}, { offset: 0, limit: 10 }))).toEqual({
          rows: [],
          total: 0,
        })
      },
    },
  ],
}

/** Racing business keys and racing job runners: what the storage must decide by itself. */
export const moneyConcurrencyScenarios: ScenarioGroup = {
  title: "money concurrency",
  scenarios: [
    {
      id: "concurrency.payment-idempotency",
      title:
        "concurrent creates with one business key make one payment and the others get it back; concurrent uses of one quote pay it once",
      run: async (harness) => {
        const { engine, storage, clock } = harness
        const second = harness.secondEngine()
        const paying = await payingCompany(harness)
        const { actor, company, from, to } = paying
        const quote = (amount: number) =>
          engine.quotes.create(actor, company.id, {
            quote: { from_profile_id: from, to_profile_id: to, instructed_amount: { amount, currency: "USD" } },
          })
        const pay = (i: number, quoteId: string, key: string) =>
          (i % 2 === 0 ? engine : second).payments.create(actor, company.id, {
            payment_instruction: { payment_quote_id: quoteId, reason: "goods_purchased", idempotency_key: key },
          })

        const oneKey = await quote(12)
        const sameKey = await Promise.all(Array.from({ length: 6 }, (_, i) => pay(i, oneKey.id, "same")))
        const made = sameKey.filter((r) => r.created)
        expect(made).toHaveLength(1)
        expect(sameKey.every((r) => r.payment.id === made[0]!.payment.id)).toBe(true)

        const oneQuote = await quote(13)
        const sameQuote = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => pay(i, oneQuote.id, `q${i}`)))
        const paid = sameQuote.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []))
        expect(paid).toHaveLength(1)
        expect(paid[0]!.created).toBe(true)
        for (const r of sameQuote) {
          if (r.status === "rejected") {
            expect(r.reason).toMatchObject({
              kind: "invalid",
              errors: [{ field: "payment_quote_id", message: "Quote has already been used" }],
            })
          }
        }

        const quotes = await Promise.all([quote(14), quote(15), quote(16), quote(17)])
        const keyRace = await Promise.allSettled(quotes.map((q, i) => pay(i, q.id, "contested")))
        expect(keyRace.filter((r) => r.status === "fulfilled")).toHaveLength(1)
        for (const r of keyRace) {
          if (r.status === "rejected") {
            expect(r.reason).toMatchObject({ kind: "invalid", errors: [{ field: "idempotency_key" }] })
          }
        }
        expect((await engine.payments.list(actor, company.id)).meta.total_records).toBe(3)

        // The same race on the port: every insert started in the same tick.
        const at = clock.now().toISOString()
        const ids = counterIds()
        const inserts = await Promise.all(
          Array.from({ length: 4 }, (_, i) =>
            storage.transaction((tx) =>
              tx.payments.insertIfNew(
                paymentRow(
                  ids.next("pay"),
                  brandId("cmp", "cmp_port_race"),
                  brandId("qt", `qt_port_race_${i}`),
                  "port-race",
                  at,
                ),
              ),
            ),
          ),
        )
        expect(inserts.filter((outcome) => outcome === "inserted")).toHaveLength(1)
      },
    },
    {
      id: "concurrency.cancel-vs-execute",
      title:
        "cancels racing the payments' job runner: each payment is either cancelled and never submitted, or executed once and its cancel refused",
      run: async (harness) => {
        const { engine, storage, paymentProvider } = harness
        const paying = await payingCompany(harness)
        const { actor, company } = paying
        const payments = []
        for (let i = 0; i < 6; i++) payments.push((await quoteAndPay(harness, paying, 30 + i, `r${i}`)).payment)
        const runner = harness.secondEngine()
        const [cancels] = await Promise.all([
          Promise.allSettled(payments.map((p) => engine.payments.cancel(actor, company.id, p.id))),
          runner.jobs.runDue(),
          runner.jobs.runDue(),
        ])
        await runAllDue(engine)
        for (const [i, payment] of payments.entries()) {
          const cancel = cancels[i]!
          const stored = await storedPayment(storage, payment.id)
          const calls = submissionsOf(paymentProvider.submissions, [payment.id]).map((s) => s.answer)
          if (cancel.status === "fulfilled") {
            expect({ status: stored?.status, calls }).toEqual({ status: "cancelled", calls: [] })
          } else {
            expect(cancel.reason).toMatchObject({ kind: "invalid", errors: [{ field: "status" }] })
            expect({ status: stored?.status, calls }).toEqual({ status: "completed", calls: ["completed"] })
          }
        }
      },
    },
    {
      id: "concurrency.job-claims",
      title:
        "racing job runners of one storage, in one engine or two, never run one job twice nor submit one payment twice",
      run: async (harness) => {
        const { engine, paymentProvider } = harness
        const runners = [0, 1, 2, 3].map(() => testRunner(harness))
        for (let i = 0; i < 12; i++) await queueTestJob(harness, `racing-${i}`)
        const reports = await Promise.all(runners.map(({ runner }) => runner.runDue()))
        expect(reports.reduce((sum, report) => sum + report.ran, 0)).toBe(12)
        const ran = runners.flatMap(({ runs }) => runs())
        expect(ran.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `racing-${i}`).sort())
        await Promise.all(runners.map(({ runner }) => runner.stop()))

        const paying = await payingCompany(harness)
        const ids: PaymentId[] = []
        for (let i = 0; i < 8; i++) ids.push((await quoteAndPay(harness, paying, 3 + i, `k${i}`)).payment.id)
        const second = harness.secondEngine()
        await Promise.all([engine.jobs.runDue(), second.jobs.runDue(), engine.jobs.runDue(), second.jobs.runDue()])
        await runAllDue(engine)
        const submitted = submissionsOf(paymentProvider.submissions, ids).map((s) => s.paymentId)
        expect([...submitted].sort()).toEqual([...ids].sort())
        const statuses = (await engine.payments.list(paying.actor, paying.company.id)).data.map((p) => p.status)
        expect(statuses).toEqual(ids.map(() => "completed"))
      },
    },
    {
      id: "concurrency.slow-provider",
      title:
        "a runner whose provider calls are slow while the engine's clock moves on keeps the job it runs: another runner takes none of its jobs over, and no payment is submitted twice",
      run: async (harness) => {
        const { storage, clock, paymentProvider, bankLinker } = harness
        const paying = await payingCompany(harness)
        const ids: PaymentId[] = []
        for (let i = 0; i < 3; i++) ids.push((await quoteAndPay(harness, paying, 5 + i, `slow-${i}`)).payment.id)
        const second = createEngine({
          storage,
          clock,
          ids: counterIds(`${processTag}s`),
          hasher: plainHasher,
          serverSecret: testServerSecret,
          paymentProvider,
          bankLinker,
        })
        // Each call outlasts the old five-minute lock, by the engine's clock; a runner must not
        // count on that clock to decide that a job in hand was abandoned.
        const slowCall = 5 * 60 * 1000 + 1000
        let secondRun: Promise<unknown> | undefined
        const slowProvider: PaymentProvider = {
          ...paymentProvider,
          submitPayment: async (request) => {
            clock.advance(slowCall)
            if (request.paymentId === ids[2] && secondRun === undefined) secondRun = runAllDue(second)
            return paymentProvider.submitPayment(request)
          },
        }
        const slow = createEngine({
          storage,
          clock,
          ids: counterIds(`${processTag}w`),
          hasher: plainHasher,
          serverSecret: testServerSecret,
          paymentProvider: slowProvider,
          bankLinker,
        })
        await runAllDue(slow)
        expect(secondRun).toBeDefined()
        await secondRun
        const submitted = submissionsOf(paymentProvider.submissions, ids).map((s) => s.paymentId)
        expect([...submitted].sort()).toEqual([...ids].sort())
        const statuses = await Promise.all(ids.map(async (id) => (await storedPayment(storage, id))?.status))
        expect(statuses).toEqual(["completed", "completed", "completed"])
      },
    },
  ],
}
