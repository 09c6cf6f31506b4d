import { Effect } from "effect"
import type { Forbidden, Invalid, NotFound } from "../../errors.ts"
import { type DeliveryEvent, deliveryMachine } from "../../machines/delivery-machine.ts"
import { type Decision, decide } from "../../machines/stored-machine.ts"
import type { CompanyId, WebhookDeliveryId, WebhookEndpointId, WorkspaceId } from "../../model/ids.ts"
import {
  maxLoggedAttempts,
  storedAttempts,
  toWebhookDelivery,
  type WebhookDelivery,
  type WebhookDeliveryAttempt,
} from "../../model/webhook-delivery.ts"
import type { Clock } from "../../ports/clock.ts"
import type {
  Repositories,
  WebhookDeliveryChange,
  WebhookDeliveryMove,
  WebhookDeliveryRecord,
  WebhookDeliveryStateValue,
  WebhookEndpointRecord,
} from "../../ports/storage/index.ts"
import type { WebhookAttempt, WebhookTransport } from "../../ports/webhook-transport.ts"
import { type CircuitState, circuitAfter, circuitPosition, laneSizeFor, probing } from "../../rules/circuit-breaker.ts"
import { type Page, type PageQuery, pageOffset, pagePolicies, parsePageRequest, toPage } from "../../rules/paging.ts"
import { webhookSignatureHeaders } from "../../rules/webhook-signature.ts"
import type { Actor } from "../steps/actor.ts"
import { type ActionCarriers, type ActionOf, applyDecision, carryOutActions } from "../steps/decision-executor.ts"
import { deliveryJobKey, deliveryQueue, jobKeysOf, waitingJobKey } from "../steps/delivery-queue.ts"
import { enqueueJob } from "../steps/job-queue.ts"
import { findLiveWebhookEndpoint, webhookEndpointNotFound } from "../steps/lookups.ts"
import { unsealed } from "../steps/secret-sealing.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inTransaction, type Lifted } from "../steps/transaction.ts"
import { inWorkspace, writeAccess } from "../steps/use-case.ts"
import { workspaceClock } from "../steps/workspace-clock.ts"

/** The spec's limit on one delivery attempt. */
export const defaultWebhookTimeoutMs = 30_000

/** The transport of an engine built without one: every attempt fails, and says why in the log. */
export const noWebhookTransport: WebhookTransport = {
  send: async () => ({ kind: "failed", failure: "network_error", durationMs: 0 }),
  checkUrl: async () => undefined,
}

/** How much of a receiver's answer the delivery log keeps. */
const excerptLength = 1024

/**
 * A delivery job sends, beside its own delivery, the other due deliveries of its endpoint, up to
 * this many in all (its lane): one read, one write and one job for them all.
 */
export const maxLaneDeliveries = 50

/** How many of a lane's deliveries are in flight at once: a lane of timeouts lasts two of them. */
const laneSendsAtOnce = 10

/**
 * How long a delivery waits, unsent, when its workspace already has its share of lanes sending:
 * its job is out of the webhook lane's slot at once, and looks again then.
 */
export const workspaceShareWaitMs = 5_000

/** The machine event an attempt's outcome is: only a 200 succeeds (spec). */
const eventOf = (attempt: WebhookAttempt): DeliveryEvent => {
  if (attempt.kind === "answered" && attempt.abort) return { type: "abort" }
  return attempt.kind === "answered" && attempt.status === 200 ? { type: "succeed" } : { type: "fail" }
}

/** An attempt as the delivery log keeps it. */
const loggedAttempt = (number: number, at: string, attempt: WebhookAttempt): WebhookDeliveryAttempt =>
  attempt.kind === "answered"
    ? {
        number,
        attempted_at: at,
        status_code: attempt.status,
        duration_ms: attempt.durationMs,
        error: null,
        response_excerpt: attempt.body === "" ? null : attempt.body.slice(0, excerptLength),
      }
    : {
        number,
        attempted_at: at,
        status_code: null,
        duration_ms: attempt.durationMs,
        error: attempt.failure,
        response_excerpt: null,
      }

/** What a delivery's move writes, and the decision whose actions follow it (see `plannedMove`). */
interface PlannedMove {
  readonly decision: Decision<WebhookDeliveryStateValue>
  readonly change: WebhookDeliveryChange
  readonly counted: boolean
}

/** An attempt that was not made because the delivery's endpoint is no longer active. */
const disabledAttempt = (number: number, at: string): WebhookDeliveryAttempt => ({
  number,
  attempted_at: at,
  status_code: null,
  duration_ms: 0,
  error: "endpoint_disabled",
  response_excerpt: null,
})

/**
 * What moving a delivery by a machine event writes at `now`, logging `logged` (an attempt, or
 * why none was made) and counting it when `counted`, and the jobs the machine queues with it
 * (its next attempt). Undefined when the machine refuses the event.
 */
const plannedMove = (
  now: Date,
  row: WebhookDeliveryRecord,
  event: DeliveryEvent,
  outcome: { readonly logged?: WebhookDeliveryAttempt; readonly counted: boolean },
): PlannedMove | undefined => {
  const attempts = row.attempt_count + (outcome.counted ? 1 : 0)
  const decision = decide(deliveryMachine, row, event, { attempts })
  if (decision === undefined) return undefined
  const next = decision.actions.find(
    (action): action is ActionOf<"enqueue"> => action.type === "enqueue" && action.job === "deliver_webhook",
  )
  const log = outcome.logged === undefined ? storedAttempts(row) : [...storedAttempts(row), outcome.logged]
  const change: WebhookDeliveryChange = {
    status: decision.status,
    attempt_count: attempts,
    last_status_code: outcome.logged === undefined ? row.last_status_code : outcome.logged.status_code,
    next_attempt_at: next === undefined ? null : new Date(now.getTime() + (next.delayMs ?? 0)).toISOString(),
    attempts: JSON.stringify(log.slice(-maxLoggedAttempts)),
    updated_at: now.toISOString(),
    lane_id: null,
  }
  return { decision, change, counted: outcome.counted }
}

/**
 * How a delivery carries out its machine's jobs: its next attempt, in its endpoint's queue. A
 * resend keeps the count, so a key (for a `counted` move only) would fold it into a retry already waiting.
 */
const deliveryCarriers = (
  ports: Pick<ServicePorts, "ids" | "clock">,
  tx: Lifted<Repositories>,
  moved: WebhookDeliveryRecord,
  counted: boolean,
): ActionCarriers => ({
  enqueue: (action) =>
    action.job === "deliver_webhook"
      ? enqueueJob(ports, tx, {
          kind: "deliver_webhook",
          payload: { delivery_id: moved.id, workspace_id: moved.workspace_id, attempt_count: moved.attempt_count },
          workspaceId: moved.workspace_id,
          queue: deliveryQueue(moved.endpoint_id),
          ...(counted ? { key: deliveryJobKey(moved.id, moved.attempt_count) } : {}),
          ...(action.delayMs === undefined ? {} : { delayMs: action.delayMs }),
        })
      : Effect.dieMessage(
          `the delivery machine asked for ${JSON.stringify(action)}, which deliveries do not carry out`,
        ),
})

/**
 * Moves deliveries, unsent, to wait until `until` (for their endpoint's circuit, or their
 * workspace's share of lanes): their attempts and log stay as they are, `next_attempt_at` says
 * when they go, and a job is queued for then.
 */
const postpone = (
  ports: Pick<ServicePorts, "ids" | "clock">,
  tx: Lifted<Repositories>,
  now: Date,
  rows: ReadonlyArray<WebhookDeliveryRecord>,
  until: string,
) =>
  Effect.gen(function* () {
    const writes: Array<WebhookDeliveryMove> = rows.map((row) => ({
      id: row.id,
      from: row,
      change: {
        status: row.status,
        attempt_count: row.attempt_count,
        last_status_code: row.last_status_code,
        next_attempt_at: until,
        attempts: row.attempts,
        updated_at: now.toISOString(),
        lane_id: null,
      },
    }))
    const moved = yield* tx.webhookDeliveries.compareAndSetMany(writes)
    const delayMs = Math.max(0, new Date(until).getTime() - now.getTime())
    yield* Effect.forEach(
      moved,
      (row) =>
        enqueueJob(ports, tx, {
          kind: "deliver_webhook",
          payload: { delivery_id: row.id, workspace_id: row.workspace_id, attempt_count: row.attempt_count },
          workspaceId: row.workspace_id,
          queue: deliveryQueue(row.endpoint_id),
          key: waitingJobKey(row.id, row.attempt_count, until),
          delayMs,
        }),
      { discard: true },
    )
  })

/**
 * Moves a delivery as {@link plannedMove} plans it, with a compare-and-set on its status and
 * attempt count, and carries out its machine's actions. Undefined when another writer got there first.
 */
const move = (
  ports: Pick<ServicePorts, "ids" | "clock">,
  clock: Clock,
  tx: Lifted<Repositories>,
  row: WebhookDeliveryRecord,
  event: DeliveryEvent,
  outcome: { readonly logged?: WebhookDeliveryAttempt; readonly counted: boolean },
) =>
  Effect.gen(function* () {
    const plan = plannedMove(clock.now(), row, event, outcome)
    if (plan === undefined) return undefined
    return yield* applyDecision(deliveryMachine, plan.decision, {
      compareAndSet: () => tx.webhookDeliveries.compareAndSet(row.id, row, plan.change),
      carriers: (moved) => deliveryCarriers(ports, tx, moved, plan.counted),
    })
  })

/**
 * Writes what a lane's attempts at `at` make of its endpoint's circuit (see `circuitAfter`),
 * starting from the circuit the lane read (a probe's lane: as it was before the probe): the
 * circuit as it now is.
 */
const recordAttempts = (
  tx: Lifted<Repositories>,
  endpoint: WebhookEndpointRecord,
  probe: boolean,
  sent: ReadonlyArray<{ readonly event: DeliveryEvent; readonly counted: boolean }>,
  at: Date,
) =>
  Effect.gen(function* () {
    const succeeded = sent.filter((each) => each.counted).map((each) => each.event.type === "succeed")
    const before: CircuitState = endpoint
    const after = circuitAfter(before, succeeded, at)
    const unchanged =
      !probe &&
      after.consecutive_failures === before.consecutive_failures &&
      after.circuit_open_until === before.circuit_open_until
    if (!unchanged) yield* tx.webhookEndpoints.recordCircuit(endpoint.workspace_id, endpoint.id, after)
    return after
  })

/** The delivery log of an endpoint, and resending one of its deliveries now. */
export const makeWebhookDeliveries = (ports: ServicePorts) => {
  /** The delivery `id` of an endpoint the actor sees, else the webhook `not_found`. */
  const findDelivery = (
    tx: Lifted<Repositories>,
    actor: Actor,
    companyId: CompanyId | null,
    endpointId: WebhookEndpointId,
    id: WebhookDeliveryId,
  ) =>
    Effect.gen(function* () {
      const endpoint = yield* findLiveWebhookEndpoint(tx, actor, companyId, endpointId)
      const row = yield* tx.webhookDeliveries.find(actor.workspaceId, id)
      if (row === undefined || row.endpoint_id !== endpoint.id) {
        return yield* Effect.fail(webhookEndpointNotFound("delivery_id", "Webhook delivery not found"))
      }
      return row
    })

  return {
    /** The endpoint's deliveries, newest first, 25 a page, each with its attempts. */
    list: (
      actor: Actor,
      companyId: CompanyId | null,
      endpointId: WebhookEndpointId,
      query: PageQuery = {},
    ): Effect.Effect<Page<WebhookDelivery>, Invalid | NotFound> =>
      Effect.gen(function* () {
        const request = yield* parsePageRequest(query, pagePolicies.webhookDeliveries)
        return yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const endpoint = yield* findLiveWebhookEndpoint(tx, actor, companyId, endpointId)
            const slice = yield* tx.webhookDeliveries.listByEndpoint(actor.workspaceId, endpoint.id, {
              offset: pageOffset(request),
              limit: request.perPage,
            })
            return toPage(slice.rows.map(toWebhookDelivery), slice.total, request)
          }),
        )
      }),

    /**
     * Sends a delivery again now, whatever its state (the machine's `resend`): it is pending
     * again with an attempt queued at once; what that attempt answers decides its state.
     */
    retry: (
      actor: Actor,
      companyId: CompanyId | null,
      endpointId: WebhookEndpointId,
      id: WebhookDeliveryId,
    ): Effect.Effect<WebhookDelivery, Forbidden | NotFound> =>
      inWorkspace(ports, actor, ({ tx, readClock }) =>
        Effect.gen(function* () {
          const row = yield* findDelivery(tx, actor, companyId, endpointId, id)
          const clock = yield* readClock
          const moved = yield* move(ports, clock, tx, row, { type: "resend" }, { counted: false })
          // Another writer moved it between the read and the write: what it is now, resent by that one.
          return toWebhookDelivery(moved ?? (yield* findDelivery(tx, actor, companyId, endpointId, id)))
        }),
      ).pipe(writeAccess(actor)),
  }
}

export type WebhookDeliveries = ReturnType<typeof makeWebhookDeliveries>

/** A lane the delivery job holds: its deliveries, their endpoint, and whether it probes a half-open circuit. */
interface HeldLane {
  readonly rows: ReadonlyArray<WebhookDeliveryRecord>
  readonly endpoint: WebhookEndpointRecord
  readonly clock: Clock
  readonly probe: boolean
}

/** One delivery's attempt (or why none was made), the machine event it is, and whether it counts as an attempt. */
interface SentDelivery {
  readonly logged: WebhookDeliveryAttempt
  readonly event: DeliveryEvent
  readonly counted: boolean
}

/** The secrets a lane signs with: the endpoint's, and a rotated-out one until it expires; undefined when unopenable. */
interface SigningSecrets {
  readonly secret: string | undefined
  readonly previous: string | undefined
}

/**
 * The delivery job (deliver_webhook): a delivery, and with it the other due deliveries of its
 * endpoint, sent in a lane in four steps: hold the lane, open the signing secrets, send, write.
 */
export const makeWebhookDeliveryJobs = (ports: ServicePorts) => {
  /** Opened secrets by endpoint and sealed text: every delivery of an endpoint signs with the same one. */
  const opened = new Map<string, string | undefined>()
  const openedKept = 1024
  const secretOf = (endpointId: string, sealedText: string) =>
    Effect.gen(function* () {
      const id = `${endpointId}\u0000${sealedText}`
      if (opened.has(id)) return opened.get(id)
      const secret = yield* unsealed(ports.serverSecret, endpointId, sealedText)
      if (opened.size >= openedKept) opened.clear()
      opened.set(id, secret)
      return secret
    })

  /**
   * Fails, unsent, a delivery whose endpoint was deactivated or deleted, with what its lane held
   * when its process died: no other job will send those.
   */
  const failUnsent = (tx: Lifted<Repositories>, clock: Clock, row: WebhookDeliveryRecord, now: string) =>
    Effect.gen(function* () {
      const due = yield* tx.webhookDeliveries.listDue(row.endpoint_id, now, row.id, maxLaneDeliveries - 1)
      for (const each of [row, ...due.filter((d) => d.lane_id === row.id)]) {
        const logged = disabledAttempt(each.attempt_count, now)
        yield* move(ports, clock, tx, each, { type: "disable" }, { logged, counted: false })
      }
    })

  /** Its endpoint's circuit is open: the delivery waits, unsent, with what its lane held when its process died. */
  const waitForCircuit = (
    tx: Lifted<Repositories>,
    row: WebhookDeliveryRecord,
    endpoint: WebhookEndpointRecord,
    at: Date,
  ) =>
    Effect.gen(function* () {
      const now = at.toISOString()
      const held = yield* tx.webhookDeliveries.listDue(endpoint.id, now, row.id, maxLaneDeliveries - 1)
      const waiting = [row, ...held.filter((d) => d.lane_id === row.id)]
      yield* postpone(ports, tx, at, waiting, endpoint.circuit_open_until ?? now)
    })

  /**
   * Takes the delivery into a lane of its own, with the endpoint's other due deliveries that no
   * other job is sending (their own jobs removed): as many as the circuit lets through, and what
   * this lane held when its process died. Undefined when another job took the delivery first.
   */
  const takeLane = (
    tx: Lifted<Repositories>,
    clock: Clock,
    at: Date,
    row: WebhookDeliveryRecord,
    endpoint: WebhookEndpointRecord,
    probe: boolean,
  ) =>
    Effect.gen(function* () {
      const [head] = yield* tx.webhookDeliveries.takeIntoLane(row.id, [row.id])
      if (head === undefined) return undefined
      // One probe per cool-down, even if this process dies before its answer is written.
      if (probe) yield* tx.webhookEndpoints.recordCircuit(endpoint.workspace_id, endpoint.id, probing(endpoint, at))
      const laneSize = probe ? maxLaneDeliveries : laneSizeFor(endpoint, maxLaneDeliveries)
      const due = yield* tx.webhookDeliveries.listDue(endpoint.id, at.toISOString(), row.id, maxLaneDeliveries - 1)
      // What this lane held when its process died stays in it, whatever its size now.
      const wanted = due.filter((d, i) => d.lane_id === row.id || i < laneSize - 1)
      const others = yield* tx.webhookDeliveries.takeIntoLane(
        row.id,
        wanted.map((d) => d.id),
      )
      yield* tx.jobs.removeUnstarted(others.flatMap(jobKeysOf))
      return { rows: [head, ...others], endpoint, clock, probe } satisfies HeldLane
    })

  /**
   * The first step: the lane of the delivery, if it is still pending with the attempts it had
   * when the job was queued (a resend or a retry queued beside it may have sent it since) and
   * its endpoint takes it now. An endpoint deactivated or deleted since fails it unsent; an open
   * circuit, or a workspace that has its share of lanes sending, makes it wait unsent.
   */
  const holdLane = (id: WebhookDeliveryId, workspaceId: WorkspaceId, attemptCount: number) =>
    inTransaction(ports.storage, (tx) =>
      Effect.gen(function* () {
        const row = yield* tx.webhookDeliveries.findForLane(id)
        if (row === undefined || row.status !== "pending" || row.attempt_count !== attemptCount) return undefined
        // Another job's lane is sending it; that job writes its attempt.
        if (row.lane_id !== null && row.lane_id !== row.id) return undefined
        const endpoint = yield* tx.webhookEndpoints.find(row.workspace_id, row.endpoint_id)
        const clock = yield* workspaceClock(ports, tx, workspaceId)
        const at = clock.now()
        const now = at.toISOString()
        if (!endpoint?.active) return yield* failUnsent(tx, clock, row, now).pipe(Effect.as(undefined))
        const position = circuitPosition(endpoint, now)
        if (position === "open") return yield* waitForCircuit(tx, row, endpoint, at).pipe(Effect.as(undefined))
        // A lane of its own resumed after a crash is already counted in its workspace's share.
        if (
          row.lane_id === null &&
          (yield* tx.webhookDeliveries.countLanes(row.workspace_id)) >= ports.webhookWorkspaceLanes
        ) {
          yield* postpone(ports, tx, at, [row], new Date(at.getTime() + workspaceShareWaitMs).toISOString())
          return undefined
        }
        return yield* takeLane(tx, clock, at, row, endpoint, position === "half_open")
      }),
    )

  /** The second step: the endpoint's secret, and a rotated-out one that signs beside it until it expires (rotate_secret). */
  const signingSecrets = (lane: HeldLane): Effect.Effect<SigningSecrets> =>
    Effect.gen(function* () {
      const { endpoint, clock } = lane
      const now = clock.now().toISOString()
      const secret = yield* secretOf(endpoint.id, endpoint.secret)
      const previous =
        endpoint.previous_secret !== null && (endpoint.previous_secret_expires_at ?? "") > now
          ? yield* secretOf(endpoint.id, endpoint.previous_secret)
          : undefined
      return { secret, previous }
    })

  /**
   * The third step: each delivery of the lane is the exact body of its event, signed with the
   * endpoint's secret (`Service-Signature`, and the Standard Webhooks headers with this
   * attempt's timestamp), sent through the transport within the timeout, unless the endpoint was
   * deactivated or deleted meanwhile. A probe goes alone; the rest of its lane goes only if it
   * answers 200, else waits unsent.
   */
  const sendLane = (lane: HeldLane, secrets: SigningSecrets): Effect.Effect<ReadonlyArray<SentDelivery>> =>
    Effect.gen(function* () {
      const { rows, endpoint, clock, probe } = lane
      const { secret, previous } = secrets
      /** Whether the endpoint is still active: one deactivated or deleted meanwhile gets no further attempt. */
      const stillActive = inTransaction(ports.storage, (tx) =>
        Effect.map(tx.webhookEndpoints.find(endpoint.workspace_id, endpoint.id), (now) => now?.active === true),
      )
      /** One attempt of `row`: what the log keeps of it, and the machine event it is. */
      const attempt = (row: WebhookDeliveryRecord) =>
        Effect.promise(async (): Promise<{ logged: WebhookDeliveryAttempt; event: DeliveryEvent }> => {
          const number = row.attempt_count + 1
          const at = clock.now().toISOString()
          if (secret === undefined) {
            const failed: WebhookAttempt = { kind: "failed", failure: "network_error", durationMs: 0 }
            return {
              logged: { ...loggedAttempt(number, at, failed), error: "secret_unavailable" },
              event: { type: "fail" },
            }
          }
          const attempt = await ports.webhookTransport.send({
            url: endpoint.url,
            body: row.payload,
            headers: await webhookSignatureHeaders({
              body: row.payload,
              eventId: row.event_id,
              timestamp: Math.floor(ports.clock.now().getTime() / 1000),
              secrets: previous === undefined ? [secret] : [secret, previous],
            }),
            timeoutMs: ports.webhookTimeoutMs,
          })
          return { logged: loggedAttempt(number, at, attempt), event: eventOf(attempt) }
        })
      /** One attempt of `row`, unless the endpoint is no longer active. */
      const send = (row: WebhookDeliveryRecord) =>
        Effect.gen(function* () {
          if (!(yield* stillActive)) {
            const logged = disabledAttempt(row.attempt_count, clock.now().toISOString())
            return { logged, event: { type: "disable" } as DeliveryEvent, counted: false }
          }
          return { ...(yield* attempt(row)), counted: true }
        })
      const [first, ...rest] = rows
      const probed = probe ? yield* send(first!) : undefined
      if (probed === undefined) return yield* Effect.forEach(rows, send, { concurrency: laneSendsAtOnce })
      if (probed.event.type !== "succeed") return [probed]
      return [probed, ...(yield* Effect.forEach(rest, send, { concurrency: laneSendsAtOnce }))]
    })

  /**
   * The last step, in one transaction: every attempt logged and each delivery moved as the
   * machine says (succeeded on a 200, failed when the receiver aborts or the attempts run out,
   * else its next attempt queued on the schedule), the endpoint's circuit written, and what a
   * failed probe left unsent postponed until the circuit closes.
   */
  const writeLane = (lane: HeldLane, sent: ReadonlyArray<SentDelivery>, workspaceId: WorkspaceId) =>
    inTransaction(ports.storage, (tx) =>
      Effect.gen(function* () {
        const { rows, endpoint, probe } = lane
        const now = (yield* workspaceClock(ports, tx, workspaceId)).now()
        const plans = new Map<string, PlannedMove>()
        const writes: Array<WebhookDeliveryMove> = []
        sent.forEach(({ event, logged, counted }, i) => {
          const row = rows[i]!
          const plan = plannedMove(now, row, event, { logged, counted })
          if (plan === undefined) return
          plans.set(row.id, plan)
          writes.push({ id: row.id, from: row, change: plan.change })
        })
        const moved = yield* tx.webhookDeliveries.compareAndSetMany(writes)
        yield* Effect.forEach(
          moved,
          (row) => {
            const plan = plans.get(row.id)!
            return carryOutActions(
              deliveryMachine,
              plan.decision.actions,
              deliveryCarriers(ports, tx, row, plan.counted),
            )
          },
          { discard: true },
        )
        const circuit = yield* recordAttempts(tx, endpoint, probe, sent, now)
        const unsent = rows.slice(sent.length)
        if (unsent.length > 0) yield* postpone(ports, tx, now, unsent, circuit.circuit_open_until ?? now.toISOString())
        return {
          circuit,
          summary: `${moved.filter((row) => row.status === "succeeded").length} of ${rows.length} delivered`,
        }
      }),
    )

  /** Tells the job log, once written, that this lane's failures opened the endpoint's circuit or its 200 closed it. */
  const reportCircuit = (endpoint: WebhookEndpointRecord, circuit: CircuitState) => {
    const isOpen = circuit.circuit_open_until !== null
    if ((endpoint.circuit_open_until !== null) === isOpen) return
    ports.jobLog?.({
      circuit: isOpen ? "opened" : "closed",
      workspaceId: endpoint.workspace_id,
      endpointId: endpoint.id,
      consecutiveFailures: circuit.consecutive_failures,
      until: circuit.circuit_open_until,
    })
  }

  return {
    /**
     * Sends a delivery (the deliver_webhook job) with the other due deliveries of its endpoint,
     * up to {@link maxLaneDeliveries}: holds the lane, opens the signing secrets, sends, and
     * writes every attempt in one transaction. A crash before that write leaves the lane to this
     * job's next run. Resolves with what it did, for the job log.
     */
    deliver: (id: WebhookDeliveryId, workspaceId: WorkspaceId, attemptCount: number): Effect.Effect<string> =>
      Effect.gen(function* () {
        const lane = yield* holdLane(id, workspaceId, attemptCount)
        if (lane === undefined) return "skipped"
        const sent = yield* sendLane(lane, yield* signingSecrets(lane))
        const written = yield* writeLane(lane, sent, workspaceId)
        reportCircuit(lane.endpoint, written.circuit)
        return written.summary
      }),
  }
}
