import { Effect } from "effect"
import type { FieldError } from "../../errors.ts"
import { Conflict, type Forbidden, Invalid, NotFound } from "../../errors.ts"
import type {
  CompanyId,
  WebhookDeliveryId,
  WebhookEndpointId,
  WebhookRecoveryId,
  WorkspaceId,
} from "../../model/ids.ts"
import {
  toWebhookRecovery,
  type WebhookRecovery,
  WebhookRecoveryCreate,
  type WebhookRecoveryCreateBody,
  webhookRecoveryMessages,
} from "../../model/webhook-recovery.ts"
import type { Repositories, WebhookRecoveryRecord } from "../../ports/storage/index.ts"
import type { Actor } from "../steps/actor.ts"
import { decodeBody } from "../steps/decode-input.ts"
import { moveDelivery } from "../steps/delivery-moves.ts"
import { enqueueJob } from "../steps/job-queue.ts"
import { findLiveWebhookEndpoint } from "../steps/lookups.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inRead, inTransaction, type Lifted } from "../steps/transaction.ts"
import { inWorkspace, writeAccess } from "../steps/use-case.ts"
import { workspaceClock } from "../steps/workspace-clock.ts"

/** How far back a recovery may reach: its window starts at most this many days before the request. */
export const maxRecoveryDays = 14

/** Failed deliveries one run of a recovery's job queues again: one short transaction each. */
export const recoveryPageSize = 100

const dayMs = 24 * 60 * 60 * 1000

/**
 * The queue of a workspace's recovery jobs: one runs at a time, so a workspace recovering many
 * endpoints at once takes one webhook slot for it, a page at a time.
 */
const recoveryQueue = (workspaceId: WorkspaceId) => `recover_webhook_deliveries:${workspaceId}`

/** The key of a recovery's job for the page after `cursor`: a run that happened twice queues its next page once. */
const recoveryJobKey = (id: WebhookRecoveryId, cursor: WebhookDeliveryId | null) =>
  `recover_webhook_deliveries:${id}:${cursor ?? ""}`

const recoveryNotFound = () => new NotFound({ field: "recovery_id", message: webhookRecoveryMessages.notFound })

/** Queues the job of a recovery's page after `cursor`. */
const queuePage = (
  ports: Pick<ServicePorts, "ids" | "clock">,
  tx: Lifted<Repositories>,
  row: WebhookRecoveryRecord,
  cursor: WebhookDeliveryId | null,
) =>
  enqueueJob(ports, tx, {
    kind: "recover_webhook_deliveries",
    payload: { recovery_id: row.id, workspace_id: row.workspace_id, company_id: row.company_id },
    key: recoveryJobKey(row.id, cursor),
    workspaceId: row.workspace_id,
    queue: recoveryQueue(row.workspace_id),
  })

/**
 * The problems of a recovery's window at `now`: `since` in the future or more than
 * {@link maxRecoveryDays} back, `until` in the future or not after `since`.
 */
const windowProblems = (since: Date, until: Date, now: Date): ReadonlyArray<FieldError> => [
  ...(since.getTime() > now.getTime() ? [{ field: "since", message: webhookRecoveryMessages.inFuture }] : []),
  ...(now.getTime() - since.getTime() > maxRecoveryDays * dayMs
    ? [{ field: "since", message: webhookRecoveryMessages.sinceTooOld(maxRecoveryDays) }]
    : []),
  ...(until.getTime() > now.getTime() ? [{ field: "until", message: webhookRecoveryMessages.inFuture }] : []),
  ...(until.getTime() <= since.getTime()
    ? [{ field: "until", message: webhookRecoveryMessages.untilBeforeSince }]
    : []),
]

/**
 * Recovering an endpoint's failed deliveries, as Svix's `recover`: every delivery of the
 * endpoint in state `failed` created in a window is sent again, by a job, and the recovery says
 * how far it got.
 */
export const makeWebhookRecoveries = (ports: ServicePorts) => ({
  /**
   * Queues a recovery of the endpoint's deliveries that failed and were created at or after
   * `since` and before `until` (now when left out), by the workspace's clock: each is sent again,
   * keeping its event id, as a resend is. `since` may reach {@link maxRecoveryDays} back; neither
   * may be in the future. The endpoint must be active. Answers the recovery, `queued`.
   *
   * @example
   * declare const endpointId: WebhookEndpointId
   * const recovery = await engine.webhookRecoveries.recover(actor, null, endpointId, { since: "2026-01-01T00:00:00Z" })
   */
  recover: (
    actor: Actor,
    companyId: CompanyId | null,
    endpointId: WebhookEndpointId,
    body: WebhookRecoveryCreateBody,
  ): Effect.Effect<WebhookRecovery, Invalid | Forbidden | NotFound> =>
    Effect.gen(function* () {
      const input = yield* decodeBody(WebhookRecoveryCreate, body)
      const id = ports.ids.next("wer")
      return yield* inWorkspace(ports, actor, ({ tx, readClock }) =>
        Effect.gen(function* () {
          const endpoint = yield* findLiveWebhookEndpoint(tx, actor, companyId, endpointId)
          const now = (yield* readClock).now()
          const since = new Date(input.since)
          const until = input.until === undefined ? now : new Date(input.until)
          const problems = windowProblems(since, until, now)
          if (problems.length > 0) return yield* Effect.fail(new Invalid({ kind: "invalid", errors: problems }))
          if (!endpoint.active)
            return yield* Effect.fail(Invalid.rule("active", webhookRecoveryMessages.endpointInactive))
          const at = now.toISOString()
          const row: WebhookRecoveryRecord = {
            id,
            workspace_id: endpoint.workspace_id,
            company_id: endpoint.company_id,
            endpoint_id: endpoint.id,
            status: "queued",
            since: since.toISOString(),
            until: until.toISOString(),
            deliveries_queued: 0,
            cursor: null,
            created_at: at,
            updated_at: at,
            completed_at: null,
          }
          yield* tx.webhookRecoveries.insert(row)
          yield* queuePage(ports, tx, row, null)
          return toWebhookRecovery(row)
        }),
      )
    }).pipe(writeAccess(actor)),

  /** A recovery of the endpoint: how far its job got. Another endpoint's, or workspace's, is not found. */
  get: (
    actor: Actor,
    companyId: CompanyId | null,
    endpointId: WebhookEndpointId,
    id: WebhookRecoveryId,
  ): Effect.Effect<WebhookRecovery, NotFound> =>
    inRead(ports.storage, (tx) =>
      Effect.gen(function* () {
        const endpoint = yield* findLiveWebhookEndpoint(tx, actor, companyId, endpointId)
        const row = yield* tx.webhookRecoveries.find(actor.workspaceId, id)
        if (row === undefined || row.endpoint_id !== endpoint.id) return yield* Effect.fail(recoveryNotFound())
        return toWebhookRecovery(row)
      }),
    ),
})

export type WebhookRecoveries = ReturnType<typeof makeWebhookRecoveries>

/** The recovery job (recover_webhook_deliveries): one page of a recovery's failed deliveries queued again. */
export const makeWebhookRecoveryJobs = (ports: ServicePorts) => ({
  /**
   * In one transaction: the next {@link recoveryPageSize} failed deliveries of the recovery's
   * window after its cursor, each moved to pending with an attempt queued now (the machine's
   * `resend`, a compare-and-set from `failed`, so a delivery already queued again is not queued
   * twice), the recovery's progress written (a compare-and-set on its cursor: a run that finds
   * another run went first rolls back and does nothing), and the next page's job queued while
   * pages remain. An endpoint deactivated or deleted meanwhile ends the recovery where it is.
   * Resolves with how many deliveries it queued.
   */
  recoverPage: (id: WebhookRecoveryId, workspaceId: WorkspaceId): Effect.Effect<number> =>
    inTransaction(ports.storage, (tx) =>
      Effect.gen(function* () {
        const row = yield* tx.webhookRecoveries.find(workspaceId, id)
        if (row === undefined || row.status === "completed") return 0
        const clock = yield* workspaceClock(ports, tx, workspaceId)
        const now = clock.now().toISOString()
        const endpoint = yield* tx.webhookEndpoints.find(workspaceId, row.endpoint_id)
        const page =
          endpoint?.active === true
            ? yield* tx.webhookDeliveries.listFailed(
                row.endpoint_id,
                { createdFrom: row.since, createdBefore: row.until },
                row.cursor,
                recoveryPageSize,
              )
            : []
        let queued = 0
        for (const delivery of page) {
          const moved = yield* moveDelivery(ports, clock, tx, delivery, { type: "resend" }, { counted: false })
          if (moved !== undefined) queued += 1
        }
        const done = page.length < recoveryPageSize
        const cursor = page.at(-1)?.id ?? row.cursor
        const advanced = yield* tx.webhookRecoveries.advance(
          workspaceId,
          id,
          { status: row.status, cursor: row.cursor },
          {
            status: done ? "completed" : "running",
            cursor,
            deliveries_queued: row.deliveries_queued + queued,
            updated_at: now,
            completed_at: done ? now : null,
          },
        )
        if (advanced === undefined) {
          return yield* Effect.fail(new Conflict({ field: "id", message: "another run of the recovery went first" }))
        }
        if (!done) yield* queuePage(ports, tx, advanced, cursor)
        return queued
      }),
    ).pipe(Effect.catchTag("Conflict", () => Effect.succeed(0))),
})
