import {
  createEngine,
  type EventRecord,
  type JobRecord,
  jobLockMs,
  maxJobAttempts,
  type PaymentProvider,
  type Repositories,
  type Storage,
} from "@payments-engine/core"
import { expect } from "vitest"
import type { ScenarioGroup } from "./contract-scenario.ts"
import {
  bankAccountRow,
  jobTime,
  payingCompany,
  paymentRow,
  profileRow,
  quoteAndPay,
  runAllDue,
  storedPayment,
  submissionsOf,
  withPortJobs,
  wrapStorage,
} from "./money-fixtures.ts"
import { counterIds, plainHasher, processTag } from "./test-ports.ts"
import { testBeneficiary } from "./test-providers.ts"

/** Claims due jobs at `at` seconds after the job epoch, locking them for 300 s. */
const claimAt = (storage: Storage, at: number, limit: number) =>
  storage.transaction((tx) => tx.jobs.claimDue(jobTime(at), jobTime(at + 300), limit))

/** What a claim must say of a job: the job, one more attempt, locked until the time given. */
const claimed = (job: JobRecord, attempts: number, lockedUntil: string, changed: Partial<JobRecord> = {}) =>
  expect.objectContaining({
    id: job.id,
    kind: job.kind,
    payload: job.payload,
    run_at: job.run_at,
    state: "queued",
    attempts,
    locked_until: lockedUntil,
    ...changed,
  })

const eventsOf = (storage: Storage, companyId: string) =>
  storage.transaction((tx) => tx.events.listByCompany(companyId, { offset: 0, limit: 100 }))

/** Fails `events.append` for events of that name, as a database that breaks mid-transaction would. */
const failingAppend = (storage: Storage, event: string) =>
  wrapStorage(storage, (tx: Repositories) => ({
    ...tx,
    events: {
      ...tx.events,
      append: (row: EventRecord) =>
        row.event === event ? Promise.reject(new Error(`test: cannot write ${event}`)) : tx.events.append(row),
    },
  }))

/** The job queue and the event outbox. */
export const jobScenarios: ScenarioGroup = {
  title: "jobs and events",
  scenarios: [
    {
      id: "jobs.claim-once",
      title:
        "a due job is claimed by one claim, oldest first, with an attempt counted; again only once its lock has expired, never once finished",
      run: async (harness) => {
        const { storage, engine, clock, paymentProvider } = harness
        await withPortJobs(storage, [jobTime(0), jobTime(0), jobTime(60), jobTime(-60)], async ([a, b, c, d]) => {
          expect(await storage.transaction((tx) => tx.jobs.nextRunAt())).toBe(jobTime(-60))
          expect(await claimAt(storage, 0, 2)).toEqual([claimed(d!, 1, jobTime(300)), claimed(a!, 1, jobTime(300))])
          expect(await claimAt(storage, 0, 10)).toEqual([claimed(b!, 1, jobTime(300))])
          expect(await claimAt(storage, 0, 10)).toEqual([])
          expect(await claimAt(storage, 60, 10)).toEqual([claimed(c!, 1, jobTime(360))])
          expect(await claimAt(storage, 299, 10)).toEqual([])
          // The lock of d, a and b ends at 300: a runner that crashed gives its jobs up then.
          expect(await claimAt(storage, 300, 10)).toEqual([
            claimed(d!, 2, jobTime(600)),
            claimed(a!, 2, jobTime(600)),
            claimed(b!, 2, jobTime(600)),
          ])
          await storage.transaction((tx) => tx.jobs.finish(d!.id, jobTime(301)))
          expect(await storage.transaction((tx) => tx.jobs.nextRunAt())).toBe(jobTime(0))
          expect(await claimAt(storage, 1000, 10)).toEqual([
            claimed(a!, 3, jobTime(1300)),
            claimed(b!, 3, jobTime(1300)),
            claimed(c!, 2, jobTime(1300)),
          ])
          expect(await claimAt(storage, 0, 0)).toEqual([])
        })

        // Through the engine: a payment job claimed by a runner that never finishes runs once its lock is over.
        const paying = await payingCompany(harness)
        const { payment } = await quoteAndPay(harness, paying, 8, "crash")
        const now = clock.now()
        const taken = await storage.transaction((tx) =>
          tx.jobs.claimDue(now.toISOString(), new Date(now.getTime() + jobLockMs).toISOString(), 100),
        )
        expect(taken.some((job) => JSON.parse(job.payload).payment_id === payment.id)).toBe(true)
        await runAllDue(engine)
        expect(await storedPayment(storage, payment.id)).toMatchObject({ status: "pending" })
        clock.advance(jobLockMs)
        await runAllDue(engine)
        expect(await storedPayment(storage, payment.id)).toMatchObject({ status: "completed" })
        await runAllDue(engine)
        expect(submissionsOf(paymentProvider.submissions, [payment.id]).map((s) => s.answer)).toEqual(["completed"])
      },
    },
    {
      id: "jobs.retry-and-fail",
      title:
        "a failed job is queued again at its retry time without a lock, given up after the last attempt, and never claimed again",
      run: async (harness) => {
        const { storage, engine, clock, paymentProvider } = harness
        await withPortJobs(storage, [jobTime(0)], async ([job]) => {
          expect(await claimAt(storage, 0, 1)).toEqual([claimed(job!, 1, jobTime(300))])
          await storage.transaction((tx) => tx.jobs.retryAt(job!.id, jobTime(10), "boom", jobTime(1)))
          expect(await storage.transaction((tx) => tx.jobs.nextRunAt())).toBe(jobTime(10))
          expect(await claimAt(storage, 9, 10)).toEqual([])
          // Due at 10 although the first claim locked it until 300: a retry releases the lock.
          expect(await claimAt(storage, 10, 10)).toEqual([
            claimed(job!, 2, jobTime(310), { run_at: jobTime(10), last_error: "boom" }),
          ])
          expect(await claimAt(storage, 10, 10)).toEqual([])
          await storage.transaction((tx) => tx.jobs.fail(job!.id, "gave up", jobTime(11)))
          expect(await claimAt(storage, 100_000, 10)).toEqual([])
          expect(await storage.transaction((tx) => tx.jobs.nextRunAt())).not.toBe(jobTime(10))
        })

        // Through the engine: a provider that is down for a while, and one that never comes back.
        const paying = await payingCompany(harness)
        const { payment: recovers } = await quoteAndPay(harness, paying, 20, "recovers")
        const { payment: never } = await quoteAndPay(harness, paying, 21, "never")
        paymentProvider.makeUnavailable(recovers.id, 2)
        paymentProvider.makeUnavailable(never.id, 1000)
        const answers = (id: string) => submissionsOf(paymentProvider.submissions, [id]).map((s) => s.answer)
        const run = async (waitMs: number) => {
          clock.advance(waitMs)
          return runAllDue(engine)
        }
        expect((await run(0)).failed).toBeGreaterThanOrEqual(2)
        expect(await storedPayment(storage, recovers.id)).toMatchObject({ status: "processing" })
        await run(999) // the first retry is 1 s later
        expect(answers(recovers.id)).toEqual(["unavailable"])
        await run(1)
        expect(answers(recovers.id)).toEqual(["unavailable", "unavailable"])
        await run(5000)
        expect(answers(recovers.id)).toEqual(["unavailable", "unavailable", "completed"])
        expect(await storedPayment(storage, recovers.id)).toMatchObject({ status: "completed" })
        await run(25_000)
        await run(125_000)
        expect(answers(never.id)).toEqual(Array.from({ length: maxJobAttempts }, () => "unavailable"))
        await run(60 * 60 * 1000)
        await run(24 * 60 * 60 * 1000)
        expect(answers(never.id)).toHaveLength(maxJobAttempts)
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
        const events = await eventsOf(storage, company.id)
        expect(events.rows.map((e) => [e.event, e.resource_id])).toEqual([
          ["BankAccountEvents::CreatedEvent", paying.account.id],
          ["PaymentProfileEvents::CreatedEvent", paying.to],
          ["BankAccountEvents::CreatedEvent", paying.funding.id],
          ["PaymentProfileEvents::CreatedEvent", paying.from],
          ["PaymentEvents::CompletedEvent", payment.id],
        ])
        expect(events.total).toBe(5)
        expect(events.rows.every((e) => e.company_id === company.id && e.workspace_id === actor.workspaceId)).toBe(true)
        expect(JSON.parse(events.rows[4]!.payload)).toMatchObject({
          event: "PaymentEvents::CompletedEvent",
          company_id: company.id,
          resource_id: payment.id,
          data: { id: payment.id, status: "completed" },
        })
        const window = await storage.transaction((tx) => tx.events.listByCompany(company.id, { offset: 3, limit: 1 }))
        expect(window).toEqual({ rows: [events.rows[3]], total: 5 })
        expect((await eventsOf(storage, other.company.id)).total).toBe(4)

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
        expect((await eventsOf(storage, company.id)).rows.at(-1)).toEqual(row)
        // Id order is byte order, whatever the database's collation: "B" < "_" < "a".
        const base = ids.next("evt")
        const ordered = [`${base}_a`, `${base}__`, `${base}_B`]
        const orderCompany = ids.next("cmp")
        await storage.transaction(async (tx) => {
          for (const id of ordered) await tx.events.append({ ...row, id, company_id: orderCompany })
        })
        expect((await eventsOf(storage, orderCompany)).rows.map((e) => e.id)).toEqual([...ordered].reverse())

        // A rolled-back transaction leaves neither its change nor its event.
        const account = bankAccountRow(ids.next("ba"), company.id, { type: "Counterparty", id: recipient.id }, at)
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
        expect((await eventsOf(storage, company.id)).total).toBe(6)

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
        expect((await eventsOf(storage, company.id)).total).toBe(6)

        // When a payment's completed event cannot be written, the payment is not completed either;
        // the retry completes it with exactly one event.
        const { payment: second } = await quoteAndPay(harness, paying, 9, "e2")
        const stuck = harness.engineOn(failingAppend(storage, "PaymentEvents::CompletedEvent"))
        expect((await runAllDue(stuck)).failed).toBeGreaterThanOrEqual(1)
        expect(await storedPayment(storage, second.id)).toMatchObject({ status: "processing" })
        expect((await eventsOf(storage, company.id)).rows.map((e) => e.resource_id)).not.toContain(second.id)
        clock.advance(1000)
        await runAllDue(engine)
        expect(await storedPayment(storage, second.id)).toMatchObject({ status: "completed" })
        const completed = (await eventsOf(storage, company.id)).rows.filter((e) => e.resource_id === second.id)
        expect(completed.map((e) => e.event)).toEqual(["PaymentEvents::CompletedEvent"])
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
                paymentRow(ids.next("pay"), "cmp_port_race", `qt_port_race_${i}`, "port-race", at),
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
          runner.jobs.runDue(3),
          runner.jobs.runDue(3),
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
      title: "racing job runners, in one engine or two, never claim one job twice nor submit one payment twice",
      run: async (harness) => {
        const { engine, storage, paymentProvider } = harness
        await withPortJobs(
          storage,
          Array.from({ length: 12 }, () => jobTime(0)),
          async (jobs) => {
            const claims = await Promise.all([0, 1, 2, 3].map(() => claimAt(storage, 0, 4)))
            const rest = await claimAt(storage, 0, 100)
            const all = [...claims.flat(), ...rest]
            expect(all.map((j) => j.id).sort()).toEqual(jobs.map((j) => j.id).sort())
            expect(all.every((j) => j.attempts === 1)).toBe(true)
          },
        )

        const paying = await payingCompany(harness)
        const ids: string[] = []
        for (let i = 0; i < 8; i++) ids.push((await quoteAndPay(harness, paying, 3 + i, `k${i}`)).payment.id)
        const second = harness.secondEngine()
        await Promise.all([
          engine.jobs.runDue(2),
          second.jobs.runDue(2),
          engine.jobs.runDue(3),
          second.jobs.runDue(3),
          engine.jobs.runDue(1),
        ])
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
        "a runner whose provider calls are slow holds only the job it runs: another runner takes none of its jobs over, and no payment is submitted twice",
      run: async (harness) => {
        const { storage, clock, paymentProvider, bankLinker } = harness
        const paying = await payingCompany(harness)
        const ids: string[] = []
        for (let i = 0; i < 3; i++) ids.push((await quoteAndPay(harness, paying, 5 + i, `slow-${i}`)).payment.id)
        const second = createEngine({
          storage,
          clock,
          ids: counterIds(`${processTag}s`),
          hasher: plainHasher,
          paymentProvider,
          bankLinker,
        })
        const slowCall = jobLockMs / 2 + 1000
        let secondRan = false
        const slowProvider: PaymentProvider = {
          ...paymentProvider,
          submitPayment: async (request) => {
            // Each call outlasts half the lock; by the last payment's call, a lock taken when the
            // first one started has run out, and the other runner looks for work.
            clock.advance(slowCall)
            if (request.paymentId === ids[2] && !secondRan) {
              secondRan = true
              await runAllDue(second)
            }
            return paymentProvider.submitPayment(request)
          },
        }
        const slow = createEngine({
          storage,
          clock,
          ids: counterIds(`${processTag}w`),
          hasher: plainHasher,
          paymentProvider: slowProvider,
          bankLinker,
        })
        await runAllDue(slow)
        expect(secondRan).toBe(true)
        const submitted = submissionsOf(paymentProvider.submissions, ids).map((s) => s.paymentId)
        expect([...submitted].sort()).toEqual([...ids].sort())
        const statuses = await Promise.all(ids.map(async (id) => (await storedPayment(storage, id))?.status))
        expect(statuses).toEqual(["completed", "completed", "completed"])
      },
    },
  ],
}
