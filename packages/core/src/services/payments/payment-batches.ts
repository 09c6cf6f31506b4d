import { Effect } from "effect"
import { Conflict, type Forbidden, Invalid, NotFound } from "../../errors.ts"
import { batchMachine, maxBatchPayments } from "../../machines/batch-machine.ts"
import { begin, decide } from "../../machines/stored-machine.ts"
import type { CompanyId, PaymentBatchId, WorkspaceId } from "../../model/ids.ts"
import {
  batchCreatedWindow,
  batchMessages,
  canonicalMetadata,
  type PaymentBatch,
  type PaymentBatchCreateBody,
  PaymentBatchFields,
  PaymentBatchListQuery,
  toPaymentBatch,
} from "../../model/payment-batch.ts"
import type { PaymentBatchCreated } from "../../model/types/payment-batch.ts"
import type { Clock } from "../../ports/clock.ts"
import type { PaymentBatchRecord } from "../../ports/storage/index.ts"
import { type Page, type PageQuery, pageOffset, pagePolicies, parsePageRequest, toPage } from "../../rules/paging.ts"
import type { Actor } from "../steps/actor.ts"
import { batchCarriers, batchCounts, batchLanes, makeBatchLaneJobs } from "../steps/batch-lanes.ts"
import { applyDecision, carryOutActions } from "../steps/decision-executor.ts"
import { decodeOptionallyWrapped, decodeQuery } from "../steps/decode-input.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inTransaction, type Lifted, type ReadRepositories } from "../steps/transaction.ts"
import { inCompany, readInCompany, writeAccess } from "../steps/use-case.ts"
import { workspaceClock } from "../steps/workspace-clock.ts"

const batchNotFound = () => new NotFound({ field: "id", message: batchMessages.notFound })

/** Use cases of payment batches. */
export const makePaymentBatches = (ports: ServicePorts) => {
  const findBatch = (tx: Lifted<ReadRepositories>, companyId: CompanyId, id: PaymentBatchId) =>
    tx.paymentBatches
      .find(companyId, id)
      .pipe(Effect.flatMap((row) => (row === undefined ? Effect.fail(batchNotFound()) : Effect.succeed(row))))

  /** Why `process` cannot move a batch that the machine refused, in the spec's words. */
  const processRefusal = (batch: PaymentBatchRecord) => {
    if (batch.status === "processing")
      return new Conflict({ field: "status", message: batchMessages.alreadyProcessing })
    if (batch.status !== "building") return Invalid.rule("status", batchMessages.notBuilding)
    if (batch.total_count === 0) return Invalid.rule("status", batchMessages.empty)
    return Invalid.rule("status", batchMessages.oversized)
  }

  return {
    /**
     * Creates a batch in `building`, with its expiry queued for when it is seven days old. With
     * an `idempotency_key` the company already used: the same label and metadata answer with
     * that batch (`created: false`), others are `invalid` on `idempotency_key`.
     *
     * @example
     * const { batch } = await engine.paymentBatches.create(actor, cid, { payment_batch: { label: "May payroll" } })
     */
    create: (
      actor: Actor,
      companyId: CompanyId,
      body: PaymentBatchCreateBody,
    ): Effect.Effect<PaymentBatchCreated, Invalid | Forbidden | NotFound> =>
      Effect.gen(function* () {
        // Every field is optional, so the wrapper is too: an empty body makes a batch.
        const input = yield* decodeOptionallyWrapped("payment_batch", PaymentBatchFields, body)
        return yield* inCompany(ports, actor, companyId, ({ tx, company, readClock }) =>
          Effect.gen(function* () {
            const clock = yield* readClock
            const now = clock.now().toISOString()
            const start = begin(batchMachine, { total: 0, succeeded: 0, failed: 0 })
            const row: PaymentBatchRecord = {
              id: ports.ids.next("pb"),
              company_id: company.id,
              status: start.status,
              label: input.label ?? null,
              idempotency_key: input.idempotency_key ?? null,
              total_count: 0,
              succeeded_count: 0,
              failed_count: 0,
              metadata: canonicalMetadata(input.metadata),
              machine_version: batchMachine.version,
              submitted_at: null,
              completed_at: null,
              next_slot_at: null,
              created_at: now,
              updated_at: now,
            }
            const { inserted, batch } = yield* tx.paymentBatches.insertOrGet(row)
            if (!inserted) {
              if (batch.label !== row.label || batch.metadata !== row.metadata) {
                return yield* Effect.fail(Invalid.rule("idempotency_key", batchMessages.keyTaken))
              }
              return { batch: toPaymentBatch(batch), created: false }
            }
            yield* carryOutActions(
              batchMachine,
              start.actions,
              batchCarriers(ports, clock, tx, batch, actor.workspaceId),
            )
            return { batch: toPaymentBatch(batch), created: true }
          }),
        )
      }).pipe(writeAccess(actor)),

    /** A batch of the company, with its counts as they are now (a batch being processed shows its progress). */
    get: (actor: Actor, companyId: CompanyId, id: PaymentBatchId): Effect.Effect<PaymentBatch, NotFound> =>
      readInCompany(ports, actor, companyId, ({ tx, company }) =>
        Effect.gen(function* () {
          return toPaymentBatch(yield* findBatch(tx, company.id, id))
        }),
      ),

    /** Batches of the company, oldest first, filtered by `status`, `from_date` and `to_date` (inclusive). */
    list: (
      actor: Actor,
      companyId: CompanyId,
      query: PageQuery & { readonly status?: unknown; readonly from_date?: unknown; readonly to_date?: unknown } = {},
    ): Effect.Effect<Page<PaymentBatch>, Invalid | NotFound> =>
      Effect.gen(function* () {
        const request = yield* parsePageRequest(query, pagePolicies.paymentBatches)
        const filter = batchCreatedWindow(yield* decodeQuery(PaymentBatchListQuery, query))
        return yield* readInCompany(ports, actor, companyId, ({ tx, company }) =>
          Effect.gen(function* () {
            const slice = yield* tx.paymentBatches.list(company.id, filter, {
              offset: pageOffset(request),
              limit: request.perPage,
            })
            return toPage(slice.rows.map(toPaymentBatch), slice.total, request)
          }),
        )
      }),

    /**
     * Moves a building batch of 1 to 500 payments to `processing` and queues the job that
     * starts them. Exactly one of any number of concurrent calls wins (a compare-and-set on the
     * status); the others find it processing: `conflict`.
     */
    process: (
      actor: Actor,
      companyId: CompanyId,
      id: PaymentBatchId,
    ): Effect.Effect<PaymentBatch, Invalid | Conflict | Forbidden | NotFound> =>
      inCompany(ports, actor, companyId, ({ tx, company, readClock }) =>
        Effect.gen(function* () {
          const batch = yield* findBatch(tx, company.id, id)
          const decision = decide(batchMachine, batch, { type: "process" }, batchCounts(batch))
          if (decision === undefined) return yield* Effect.fail(processRefusal(batch))
          const clock = yield* readClock
          const now = clock.now().toISOString()
          const moved = yield* applyDecision(batchMachine, decision, {
            compareAndSet: (status) =>
              Effect.gen(function* () {
                const moved = yield* tx.paymentBatches.compareAndSetStatus(batch.id, batch.status, status, {
                  submitted_at: now,
                  next_slot_at: now,
                  updated_at: now,
                })
                if (moved === undefined) return undefined
                // The compare-and-set names the status only: a held payment cancelled meanwhile (its
                // transaction committed while this one waited for the row) shows in the counts the
                // write returns. Decided again on them, a batch left empty is refused, rolling back.
                const asFound = { ...moved, status: batch.status }
                if (decide(batchMachine, asFound, { type: "process" }, batchCounts(moved)) === undefined) {
                  return yield* Effect.fail(processRefusal(asFound))
                }
                return moved
              }),
            carriers: (moved) => batchCarriers(ports, clock, tx, moved, actor.workspaceId),
          })
          if (moved === undefined) {
            const current = (yield* tx.paymentBatches.find(company.id, id)) ?? batch
            return yield* Effect.fail(processRefusal(current))
          }
          return toPaymentBatch(moved)
        }),
      ).pipe(writeAccess(actor)),
  }
}

export type PaymentBatches = ReturnType<typeof makePaymentBatches>

/** The background jobs of payment batches: starting one's lanes, running a lane, expiring one left building. */
export const makePaymentBatchJobs = (ports: ServicePorts) => {
  const { move } = batchLanes(ports)
  return {
    ...makeBatchLaneJobs(ports),

    /**
     * Expires a batch still building seven days after it was made (the expire_batch job, due
     * then by the workspace's clock); its held payments are cancelled. Anything else is left
     * alone: a batch processed in time has nothing to expire.
     */
    expire: (batchId: PaymentBatchId, workspaceId: WorkspaceId): Effect.Effect<PaymentBatch | undefined> =>
      inTransaction(ports.storage, (tx) =>
        Effect.gen(function* () {
          const batch = yield* tx.paymentBatches.findById(batchId)
          if (batch === undefined || batch.status !== "building") return undefined
          const decision = decide(batchMachine, batch, { type: "expire" }, batchCounts(batch))
          if (decision === undefined) return undefined
          const clock: Clock = yield* workspaceClock(ports, tx, workspaceId)
          const now = clock.now().toISOString()
          const expired = yield* applyDecision(batchMachine, decision, {
            compareAndSet: (status) =>
              tx.paymentBatches.compareAndSetStatus(batch.id, batch.status, status, { updated_at: now }),
            carriers: (expired) => batchCarriers(ports, clock, tx, expired, workspaceId),
          })
          if (expired === undefined) return undefined
          const company = { id: batch.company_id, workspace_id: workspaceId }
          const held = yield* tx.payments.listInBatch(batch.id, maxBatchPayments, "pending")
          for (const payment of held) {
            yield* move(clock, tx, company, payment, { type: "cancel" }, { updated_at: now })
          }
          return toPaymentBatch(expired)
        }),
      ),
  }
}
