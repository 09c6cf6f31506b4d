import {
  brandId,
  type CompanyId,
  messages,
  type PaymentId,
  type PaymentProfileId,
  type PaymentRepository,
  type PaymentStatusValue,
  type ProfileInUse,
  type QuoteId,
  quoteLifetimeMs,
  type WorkspaceId,
} from "@payments-engine/core"
import { expect } from "vitest"
import { expectRefusal } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import {
  payingCompany,
  paymentRow,
  payQuote,
  quoteAndPay,
  quoteFor,
  runAllDue,
  storedPayment,
  submissionsOf,
} from "./payment-fixtures.ts"
import { counterIds } from "./test-ports.ts"

const notFound = "Payment Instruction not found or not accessible in this workspace"

/** Payments: created from a quote once, executed through their job, cancelled, listed. */
export const paymentScenarios: ScenarioGroup = {
  title: "payments",
  scenarios: [
    {
      id: "payments.create-and-execute",
      title:
        "a payment is stored pending with its job, runs to completed (a .13 amount to failed) and is submitted once with its quote's amounts",
      run: async (harness) => {
        const { engine, storage, paymentProvider, clock } = harness
        const paying = await payingCompany(harness)
        const { actor, company, from, to } = paying
        const good = await quoteAndPay(harness, paying, 40, "g")
        const bad = await quoteAndPay(harness, paying, 40.13, "b")
        expect(good.payment).toMatchObject({
          quote_id: good.quote.id,
          status: "pending",
          instructed_amount: "40.00",
          instructed_amount_currency: "USD",
          reason: "goods_purchased",
          from_profile: { id: from },
          to_profile: { id: to },
        })
        const at = clock.now().toISOString()
        expect(await storedPayment(storage, good.payment.id)).toEqual({
          id: good.payment.id,
          company_id: company.id,
          quote_id: good.quote.id,
          idempotency_key: "g",
          reason: "goods_purchased",
          credit_note: null,
          debit_note: null,
          payment_batch_id: null,
          status: "pending",
          machine_version: 1,
          instructed_amount: "40.00",
          instructed_currency: "USD",
          from_profile_id: from,
          to_profile_id: to,
          provider_payment_id: null,
          failure_reason: null,
          created_at: at,
          updated_at: at,
        })

        clock.advance(1000)
        expect((await runAllDue(engine)).failed).toBe(0)
        expect(await engine.jobs.runDue()).toEqual({ ran: 0, failed: 0 })
        expect((await engine.payments.get(actor, company.id, good.payment.id)).status).toBe("completed")
        expect((await engine.payments.get(actor, company.id, bad.payment.id)).status).toBe("failed")
        const later = clock.now().toISOString()
        const read = await storage.transaction(async (tx) => ({
          good: await tx.payments.find(company.id, good.payment.id),
          bad: await tx.payments.findById(bad.payment.id),
          byKey: await tx.payments.findByIdempotencyKey(company.id, "g"),
          elsewhere: await tx.payments.find(brandId("cmp", "cmp_other"), good.payment.id),
        }))
        const byQuote = await harness.reader.paymentOfQuote(bad.quote.id)
        expect(read.good).toMatchObject({
          status: "completed",
          provider_payment_id: `pp_${good.payment.id}`,
          failure_reason: null,
          created_at: at,
          updated_at: later,
        })
        expect(read.bad).toMatchObject({
          status: "failed",
          provider_payment_id: `pp_${bad.payment.id}`,
          failure_reason: "test amount .13",
          created_at: at,
          updated_at: later,
        })
        expect(read.byKey).toEqual(read.good)
        expect(byQuote).toEqual(read.bad)
        expect(read.elsewhere).toBeUndefined()
        expect(submissionsOf(paymentProvider.submissions, [good.payment.id, bad.payment.id])).toEqual([
          {
            paymentId: good.payment.id,
            sourceAmount: "40.25",
            sourceCurrency: "USD",
            targetAmount: "40.00",
            targetCurrency: "USD",
            instructedAmount: "40.00",
            instructedCurrency: "USD",
            paymentMethod: "ach",
            providerBeneficiaryId: `ben_${paying.account.id}`,
            answer: "completed",
          },
          expect.objectContaining({ paymentId: bad.payment.id, sourceAmount: "40.38", answer: "failed" }),
        ])
        await expectRefusal(
          engine.payments.get(actor, company.id, brandId("pay", "pay_unknown")),
          "not_found",
          "id",
          notFound,
        )
        const stranger = await harness.workspace()
        await expectRefusal(
          engine.payments.get(stranger, company.id, good.payment.id),
          "not_found",
          "company_id",
          messages.companyNotFound,
        )
      },
    },
    {
      id: "payments.quote-single-use",
      title:
        "a quote pays once: a second payment of it is refused, and the port's insert refuses a second row for a quote or a business key",
      run: async (harness) => {
        const { engine, storage, clock } = harness
        const { actor, company, from, to } = await payingCompany(harness)
        const quote = await quoteFor(engine, actor, company.id, from, to, 10)
        const { payment } = await payQuote(engine, actor, company.id, quote.id, "first")
        await expectRefusal(
          payQuote(engine, actor, company.id, quote.id, "second"),
          "invalid",
          "payment_quote_id",
          "Quote has already been used",
        )
        expect((await engine.payments.list(actor, company.id)).data.map((p) => p.id)).toEqual([payment.id])

        // The port decides single use by itself: one row per quote, one per company and key.
        const ids = counterIds()
        const at = clock.now().toISOString()
        const first = await storedPayment(storage, payment.id)
        const sameQuote = paymentRow(ids.next("pay"), company.id, quote.id, "port-1", at)
        const sameKey = paymentRow(ids.next("pay"), company.id, brandId("qt", "qt_port_2"), "first", at)
        const otherCompany = paymentRow(
          ids.next("pay"),
          brandId("cmp", "cmp_port_other"),
          brandId("qt", "qt_port_3"),
          "first",
          at,
        )
        const fresh = paymentRow(ids.next("pay"), company.id, brandId("qt", "qt_port_4"), "port-4", at)
        const outcomes = await storage.transaction(async (tx) => [
          await tx.payments.insertIfNew(sameQuote),
          await tx.payments.insertIfNew(sameKey),
          await tx.payments.insertIfNew(otherCompany),
          await tx.payments.insertIfNew(fresh),
        ])
        expect(outcomes).toEqual(["conflict", "conflict", "inserted", "inserted"])
        const after = await storage.transaction(async (tx) => ({
          first: await tx.payments.findById(payment.id),
          sameQuote: await tx.payments.findById(sameQuote.id),
          sameKey: await tx.payments.findById(sameKey.id),
          otherCompany: await tx.payments.findByIdempotencyKey(brandId("cmp", "cmp_port_other"), "first"),
          fresh: await tx.payments.find(company.id, fresh.id),
        }))
        expect({ ...after, byQuote: await harness.reader.paymentOfQuote(quote.id) }).toEqual({
          first,
          sameQuote: undefined,
          sameKey: undefined,
          otherCompany,
          byQuote: first,
          fresh,
        })
      },
    },
    {
      id: "payments.quote-expiry",
      title:
        "a quote pays until 15 minutes have passed on the engine's clock, never after; a key already paid still replays",
      run: async (harness) => {
        const { engine, clock } = harness
        const { actor, company, from, to } = await payingCompany(harness)
        const onTime = await quoteFor(engine, actor, company.id, from, to, 10)
        const late = await quoteFor(engine, actor, company.id, from, to, 11)
        const used = await quoteFor(engine, actor, company.id, from, to, 12)
        const paid = await payQuote(engine, actor, company.id, used.id, "used")
        clock.advance(quoteLifetimeMs - 1)
        const { payment } = await payQuote(engine, actor, company.id, onTime.id, "on-time")
        expect(payment.status).toBe("pending")
        clock.advance(1)
        await expectRefusal(
          payQuote(engine, actor, company.id, late.id, "late"),
          "invalid",
          "payment_quote_id",
          "Quote has expired",
        )
        // Expiry is checked before use, and a key already paid replays whatever its quote's age.
        await expectRefusal(
          payQuote(engine, actor, company.id, used.id, "used-again"),
          "invalid",
          "payment_quote_id",
          "Quote has expired",
        )
        expect(await payQuote(engine, actor, company.id, used.id, "used")).toEqual({
          payment: paid.payment,
          created: false,
        })
        const listed = await engine.payments.list(actor, company.id)
        expect(listed.data.map((p) => p.quote_id)).toEqual([used.id, onTime.id])
      },
    },
    {
      id: "payments.idempotency",
      title:
        "one business key makes one payment per company: the same request replays it, different parameters are refused, other companies are apart",
      run: async (harness) => {
        const { engine, storage } = harness
        const { actor, company, from, to } = await payingCompany(harness)
        const quote = await quoteFor(engine, actor, company.id, from, to, 10)
        const other = await quoteFor(engine, actor, company.id, from, to, 11)
        const created = await payQuote(engine, actor, company.id, quote.id, "key-1", { credit_note: "inv 1" })
        expect(created.created).toBe(true)
        expect(created.payment).not.toHaveProperty("idempotency_key")
        const again = await payQuote(engine, actor, company.id, quote.id, "key-1", { credit_note: "inv 1" })
        expect(again).toEqual({ payment: created.payment, created: false })
        // One call at a time: a refusal left unawaited while another is checked would be an unhandled rejection.
        for (const different of [
          { quoteId: other.id, extra: { credit_note: "inv 1" } },
          { quoteId: quote.id, extra: { credit_note: "inv 1", reason: "wages_salary" as const } },
          { quoteId: quote.id, extra: { credit_note: "inv 2" } },
          { quoteId: quote.id, extra: {} },
        ]) {
          await expectRefusal(
            payQuote(engine, actor, company.id, different.quoteId, "key-1", different.extra),
            "invalid",
            "idempotency_key",
            messages.alreadyTaken,
          )
        }
        await expectRefusal(
          engine.payments.create(actor, company.id, {
            payment_instruction: { payment_quote_id: other.id, reason: "goods_purchased" },
          }),
          "invalid",
          "idempotency_key",
          "Idempotency key is required",
        )
        expect(await engine.payments.get(actor, company.id, created.payment.id)).toMatchObject({
          idempotency_key: "key-1",
          credit_note: "inv 1",
        })
        // The same key in another company is another payment.
        const elsewhere = await payingCompany(harness)
        const theirs = await quoteAndPay(harness, elsewhere, 10, "key-1")
        expect(theirs.payment.id).not.toBe(created.payment.id)
        const byKey = await storage.transaction(async (tx) => [
          (await tx.payments.findByIdempotencyKey(company.id, "key-1"))?.id,
          (await tx.payments.findByIdempotencyKey(elsewhere.company.id, "key-1"))?.id,
          await tx.payments.findByIdempotencyKey(company.id, "key-2"),
        ])
        expect(byKey).toEqual([created.payment.id, theirs.payment.id, undefined])
        expect((await engine.payments.list(actor, company.id)).meta.total_records).toBe(1)
      },
    },
    {
      id: "payments.cancel",
      title:
        "a pending payment can be cancelled, with its event, and is then never submitted; any other status refuses",
      run: async (harness) => {
        const { engine, paymentProvider, storage } = harness
        const paying = await payingCompany(harness)
        const { actor, company } = paying
        const { payment } = await quoteAndPay(harness, paying, 5, "c")
        const cancelled = await engine.payments.cancel(actor, company.id, payment.id)
        expect(cancelled).toMatchObject({ id: payment.id, status: "cancelled", idempotency_key: "c" })
        expect(await storedPayment(storage, payment.id)).toMatchObject({ status: "cancelled" })
        await runAllDue(engine)
        expect(submissionsOf(paymentProvider.submissions, [payment.id])).toEqual([])
        expect((await engine.payments.get(actor, company.id, payment.id)).status).toBe("cancelled")
        await expectRefusal(
          engine.payments.cancel(actor, company.id, payment.id),
          "invalid",
          "status",
          "Payment cannot be cancelled in status cancelled",
        )
        const done = await quoteAndPay(harness, paying, 6, "d")
        await runAllDue(engine)
        await expectRefusal(
          engine.payments.cancel(actor, company.id, done.payment.id),
          "invalid",
          "status",
          "Payment cannot be cancelled in status completed",
        )
        const failed = await quoteAndPay(harness, paying, 6.13, "f")
        await runAllDue(engine)
        await expectRefusal(
          engine.payments.cancel(actor, company.id, failed.payment.id),
          "invalid",
          "status",
          "Payment cannot be cancelled in status failed",
        )
        const held = await quoteAndPay(harness, paying, 7, "h")
        await expectRefusal(
          engine.payments.cancel({ ...actor, scope: "read" }, company.id, held.payment.id),
          "forbidden",
          "base",
          messages.readOnlyKey,
        )
        await expectRefusal(
          engine.payments.cancel(actor, company.id, brandId("pay", "pay_unknown")),
          "not_found",
          "id",
          notFound,
        )
        const events = await harness.reader.eventsOfCompany(company.id)
        expect(events.filter((e) => e.event.startsWith("PaymentEvents::")).map((e) => e.event)).toEqual([
          "PaymentEvents::CancelledEvent",
          "PaymentEvents::DebitInitiatedEvent",
          "PaymentEvents::CompletedEvent",
          "PaymentEvents::DebitInitiatedEvent",
          "PaymentEvents::FailedEvent",
        ])
        expect(await storedPayment(storage, held.payment.id)).toMatchObject({ status: "pending" })
      },
    },
    {
      id: "companies.find-with-profiles-and-quote",
      title:
        "findWithProfilesInUse and findWithQuoteInUse give the workspace's company (deleted too) with its own profiles in use and quote, never another company's or workspace's",
      run: async (harness) => {
        const { storage, engine } = harness
        const paying = await payingCompany(harness)
        const other = await payingCompany(harness)
        const { actor } = paying
        const company = paying.company.id
        const ws = actor.workspaceId
        const quote = await quoteFor(engine, actor, company, paying.from, paying.to, 9)
        const foreign = await quoteFor(engine, other.actor, other.company.id, other.from, other.to, 9)
        const ids = [paying.from, paying.to].map((id) => brandId("pp", id))
        const [stored, storedQuote, inUse] = await storage.transaction(async (tx) => [
          await tx.companies.find(ws, company),
          await tx.quotes.find(company, quote.id),
          await tx.paymentProfiles.findInUse(company, ids),
        ])
        expect(inUse).toHaveLength(2)
        const byProfileId = (uses: ReadonlyArray<ProfileInUse>) =>
          [...uses].sort((a, b) => (a.profile.id < b.profile.id ? -1 : 1))
        const withProfiles = (workspace: WorkspaceId, id: CompanyId, profileIds: ReadonlyArray<PaymentProfileId>) =>
          storage.transaction((tx) => tx.companies.findWithProfilesInUse(workspace, id, profileIds))
        const withQuote = (workspace: WorkspaceId, id: CompanyId, quoteId: QuoteId) =>
          storage.transaction((tx) => tx.companies.findWithQuoteInUse(workspace, id, quoteId))
        const sorted = <T extends { readonly profiles: ReadonlyArray<ProfileInUse> }>(found: T | undefined) =>
          found === undefined ? undefined : { ...found, profiles: byProfileId(found.profiles) }

        expect(sorted(await withProfiles(ws, company, ids))).toEqual({ company: stored, profiles: byProfileId(inUse) })
        expect(sorted(await withQuote(ws, company, quote.id))).toEqual({
          company: stored,
          quote: storedQuote,
          profiles: byProfileId(inUse),
        })
        // Another workspace does not see the company; the company does not see another's profiles or quote.
        expect(await withProfiles(other.actor.workspaceId, company, ids)).toBeUndefined()
        expect(await withQuote(other.actor.workspaceId, company, quote.id)).toBeUndefined()
        const theirs = [other.from, other.to].map((id) => brandId("pp", id))
        expect(await withProfiles(ws, company, theirs)).toEqual({ company: stored, profiles: [] })
        expect(await withQuote(ws, company, foreign.id)).toEqual({ company: stored, quote: undefined, profiles: [] })
        expect(await withQuote(ws, company, brandId("qt", "qt_unknown"))).toEqual({
          company: stored,
          quote: undefined,
          profiles: [],
        })
        // A deleted company is still found, deleted: the caller refuses it.
        await engine.companies.delete(actor, company)
        const deleted = await withQuote(ws, company, quote.id)
        expect(deleted?.company.deleted_at).not.toBeNull()
        expect((await withProfiles(ws, company, ids))?.company.deleted_at).not.toBeNull()
      },
    },
    {
      id: "payments.find-for-execution",
      title:
        "findForExecution gives a payment with its quote and its profiles in use, as stored; no quote nor profile of another company; undefined for an unknown id",
      run: async (harness) => {
        const { storage, clock } = harness
        const paying = await payingCompany(harness)
        const { quote, payment } = await quoteAndPay(harness, paying, 9, "ffe")
        const stored = await storedPayment(storage, payment.id)
        const company = paying.company.id
        const [storedQuote, inUse] = await storage.transaction(async (tx) => [
          await tx.quotes.find(company, quote.id),
          await tx.paymentProfiles.findInUse(company, [stored!.from_profile_id, stored!.to_profile_id]),
        ])
        expect(storedQuote).toBeDefined()
        expect(inUse).toHaveLength(2)
        const found = (id: PaymentId) => storage.transaction((tx) => tx.payments.findForExecution(id))
        const byProfileId = (uses: ReadonlyArray<ProfileInUse>) =>
          [...uses].sort((a, b) => (a.profile.id < b.profile.id ? -1 : 1))
        const read = await found(payment.id)
        expect({ ...read, profiles: byProfileId(read!.profiles) }).toEqual({
          payment: stored,
          quote: storedQuote,
          profiles: byProfileId(inUse),
        })
        expect(await found(brandId("pay", "pay_unknown"))).toBeUndefined()

        // A payment whose quote and profiles are another company's finds neither.
        const other = await payingCompany(harness)
        const foreign = await quoteFor(harness.engine, other.actor, other.company.id, other.from, other.to, 9)
        const at = clock.now().toISOString()
        const astray = {
          ...paymentRow(brandId("pay", `${payment.id}_astray`), company, foreign.id, "ffe-2", at),
          from_profile_id: brandId("pp", other.from),
          to_profile_id: brandId("pp", other.to),
        }
        await storage.transaction((tx) => tx.payments.insertIfNew(astray))
        expect(await found(astray.id)).toEqual({ payment: astray, quote: undefined, profiles: [] })
      },
    },
    {
      id: "payments.compare-and-set",
      title:
        "a status compare-and-set changes the payment only from the status it names (and, given one, the last update), writes the given fields and returns the row",
      run: async (harness) => {
        const { storage, clock } = harness
        const paying = await payingCompany(harness)
        const { payment } = await quoteAndPay(harness, paying, 9, "cas")
        const created = await storedPayment(storage, payment.id)
        clock.advance(1000)
        const at = clock.now().toISOString()
        const cas = (...args: Parameters<PaymentRepository["compareAndSetStatus"]>) =>
          storage.transaction((tx) => tx.payments.compareAndSetStatus(...args))
        expect(await cas(payment.id, "processing", "completed", { updated_at: at })).toBeUndefined()
        expect(await cas(payment.id, "cancelled", "pending", { updated_at: at })).toBeUndefined()
        expect(await cas(brandId("pay", "pay_unknown"), "pending", "processing", { updated_at: at })).toBeUndefined()
        expect(await storedPayment(storage, payment.id)).toEqual(created)

        const processing = await cas(payment.id, "pending", "processing", {
          updated_at: at,
          provider_payment_id: "pp_1",
        })
        expect(processing).toEqual({
          ...created,
          status: "processing",
          provider_payment_id: "pp_1",
          failure_reason: null,
          updated_at: at,
        })
        expect(await storedPayment(storage, payment.id)).toEqual(processing)
        // Given the last update it read, a writer changes the payment only if nobody wrote it since.
        clock.advance(1000)
        const later = clock.now().toISOString()
        expect(
          await cas(payment.id, "processing", "failed", { updated_at: later }, created!.updated_at),
        ).toBeUndefined()
        expect(await storedPayment(storage, payment.id)).toEqual(processing)
        const touched = await cas(payment.id, "processing", "processing", { updated_at: later }, at)
        expect(touched).toEqual({ ...processing, updated_at: later })
        clock.advance(1000)
        const latest = clock.now().toISOString()
        const fromLastRead = await Promise.all([
          cas(payment.id, "processing", "failed", { updated_at: latest, failure_reason: "stale" }, later),
          cas(payment.id, "processing", "processing", { updated_at: latest }, later),
        ])
        expect(fromLastRead.filter((row) => row !== undefined)).toHaveLength(1)
        expect(await storedPayment(storage, payment.id)).toEqual(fromLastRead.find((row) => row !== undefined))
        await cas(payment.id, "failed", "processing", { updated_at: at, failure_reason: null })
        // Two writers from the same status: the first wins, the second is told so.
        const racing = await Promise.all([
          cas(payment.id, "processing", "failed", { updated_at: at, failure_reason: "first" }),
          cas(payment.id, "processing", "completed", { updated_at: at }),
        ])
        expect(racing.filter((row) => row !== undefined)).toHaveLength(1)
        const final = await storedPayment(storage, payment.id)
        expect(final).toEqual(racing.find((row) => row !== undefined))
        // A field left out of the change is left alone.
        expect(final?.provider_payment_id).toBe("pp_1")
        expect(await cas(payment.id, final!.status, "pending", { updated_at: at, failure_reason: null })).toMatchObject(
          {
            status: "pending",
            failure_reason: null,
            provider_payment_id: "pp_1",
          },
        )
      },
    },
    {
      id: "payments.list-filters",
      title:
        "payments list oldest first, filtered by status and batch, paged with a total, only the company's; an unknown status is refused (missing)",
      run: async (harness) => {
        const { engine } = harness
        const paying = await payingCompany(harness)
        const { actor, company } = paying
        const completed = await quoteAndPay(harness, paying, 1, "1")
        const failed = await quoteAndPay(harness, paying, 2.13, "2")
        await runAllDue(engine)
        const cancelled = await quoteAndPay(harness, paying, 3, "3")
        await engine.payments.cancel(actor, company.id, cancelled.payment.id)
        const pending = await quoteAndPay(harness, paying, 4, "4")
        const elsewhere = await payingCompany(harness)
        await quoteAndPay(harness, elsewhere, 5, "1")

        const list = async (query: Record<string, unknown> = {}) => {
          const page = await engine.payments.list(actor, company.id, query)
          return { ids: page.data.map((p) => p.id), total: page.meta.total_records }
        }
        const all = [completed, failed, cancelled, pending].map((p) => p.payment.id)
        expect(await list()).toEqual({ ids: all, total: 4 })
        expect(await list({ status: "completed" })).toEqual({ ids: [completed.payment.id], total: 1 })
        expect(await list({ status: "failed" })).toEqual({ ids: [failed.payment.id], total: 1 })
        expect(await list({ status: "cancelled" })).toEqual({ ids: [cancelled.payment.id], total: 1 })
        expect(await list({ status: "pending" })).toEqual({ ids: [pending.payment.id], total: 1 })
        expect(await list({ status: "processing" })).toEqual({ ids: [], total: 0 })
        expect(await list({ payment_batch_id: "pb_none" })).toEqual({ ids: [], total: 0 })
        expect(await list({ status: "pending", payment_batch_id: "pb_none" })).toEqual({ ids: [], total: 0 })
        expect(await list({ page: 2, per_page: 3 })).toEqual({ ids: all.slice(3), total: 4 })
        expect(await list({ page: 1, per_page: 2 })).toEqual({ ids: all.slice(0, 2), total: 4 })
        expect(await list({ page: 3, per_page: 2 })).toEqual({ ids: [], total: 4 })
        const statuses = (await engine.payments.list(actor, company.id)).data.map((p) => p.status)
        expect(statuses).toEqual(["completed", "failed", "cancelled", "pending"])
        await expectRefusal(
          engine.payments.list(actor, company.id, { status: "done" }),
          "missing",
          "status",
          "Invalid status",
        )

        // The port filters on its own: status and batch together, with the window and total.
        const slice = await harness.storage.transaction((tx) =>
          tx.payments.list(company.id, { status: "pending" }, { offset: 0, limit: 10 }),
        )
        expect(slice.rows.map((r) => r.id)).toEqual([pending.payment.id])
        expect(slice.total).toBe(1)
        const windowed = await harness.storage.transaction((tx) =>
          tx.payments.list(company.id, {}, { offset: 1, limit: 2 }),
        )
        expect({ ids: windowed.rows.map((r) => r.id), total: windowed.total }).toEqual({
          ids: all.slice(1, 3),
          total: 4,
        })
        // Id order is byte order, whatever the database's collation: "B" < "_" < "a".
        const ids = counterIds()
        const base = ids.next("pay")
        const orderCompany = ids.next("cmp")
        const at = harness.clock.now().toISOString()
        const ordered = [`${base}_a`, `${base}__`, `${base}_B`].map((id) => brandId("pay", id))
        await harness.storage.transaction(async (tx) => {
          for (const id of ordered)
            await tx.payments.insertIfNew(paymentRow(id, orderCompany, brandId("qt", `qt_${id}`), id, at))
        })
        const byBytes = await harness.storage.transaction((tx) =>
          tx.payments.list(orderCompany, {}, { offset: 0, limit: 10 }),
        )
        expect(byBytes.rows.map((r) => r.id)).toEqual([...ordered].reverse())
      },
    },
    {
      id: "payments.list-stuck",
      title:
        "processing payments of every workspace last updated before a time list least recently updated first (then by id), at most the limit, each with its workspace; one updated at that very time or later, or in another status, is left out",
      run: async (harness) => {
        const { engine, storage } = harness
        const mine = await harness.workspace()
        const theirs = await harness.workspace()
        const body = { name: "Payer Inc", country: "US", default_currency: "USD" }
        const myCompany = await engine.companies.create(mine, body)
        const theirCompany = await engine.companies.create(theirs, body)
        const base = counterIds().next("pay")
        // Decades before the test clock's epoch: a shared storage's other processing payments
        // were all updated later than these, so they cannot come first.
        const at = (ms: number) => new Date(Date.UTC(2001, 0, 1) + ms).toISOString()
        const row = (suffix: string, company: typeof myCompany, status: PaymentStatusValue, ms: number) => {
          const id = brandId("pay", `${base}_${suffix}`)
          return { ...paymentRow(id, company.id, brandId("qt", `qt_${id}`), id, at(ms)), status }
        }
        const first = row("1", myCompany, "processing", 1000)
        // Updated at the same time: in id order, which is byte order ("B" < "a").
        const tieLower = row("a", theirCompany, "processing", 2000)
        const tieUpper = row("B", myCompany, "processing", 2000)
        const boundary = row("3", theirCompany, "processing", 3000)
        const later = row("4", myCompany, "processing", 4000)
        const others = (["pending", "completed", "failed", "cancelled"] as const).map((status) =>
          row(status, myCompany, status, 0),
        )
        await storage.transaction(async (tx) => {
          for (const payment of [later, boundary, tieLower, first, tieUpper, ...others])
            expect(await tx.payments.insertIfNew(payment)).toBe("inserted")
        })
        const stuck = (before: string, limit: number) =>
          storage.transaction((tx) => tx.payments.listStuck(before, limit))
        const idsOf = async (before: string, limit: number) => (await stuck(before, limit)).map((p) => p.id)

        expect(await stuck(at(3000), 10)).toEqual([
          { ...first, workspace_id: mine.workspaceId },
          { ...tieUpper, workspace_id: mine.workspaceId },
          { ...tieLower, workspace_id: theirs.workspaceId },
        ])
        expect(await idsOf(at(3000), 2)).toEqual([first.id, tieUpper.id])
        expect(await idsOf(at(3000), 1)).toEqual([first.id])
        expect(await idsOf(at(3000), 0)).toEqual([])
        expect(await idsOf(at(3001), 10)).toEqual([first.id, tieUpper.id, tieLower.id, boundary.id])
        expect(await idsOf(at(1000), 10)).toEqual([])
        expect(await idsOf(at(1001), 10)).toEqual([first.id])
        // A payment that leaves processing leaves the list; one updated since moves to its new place.
        await storage.transaction(async (tx) => {
          await tx.payments.compareAndSetStatus(first.id, "processing", "completed", { updated_at: at(5000) })
          await tx.payments.compareAndSetStatus(tieUpper.id, "processing", "processing", { updated_at: at(3500) })
        })
        expect(await idsOf(at(4001), 10)).toEqual([tieLower.id, boundary.id, tieUpper.id, later.id])
      },
    },
  ],
}
