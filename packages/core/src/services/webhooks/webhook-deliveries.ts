import { Effect, FiberRef } from "effect"
import type { Forbidden, Invalid, NotFound } from "../../errors.ts"
import { type DeliveryEvent, deliveryMachine } from "../../machines/delivery-machine.ts"
import type { CompanyId, WebhookDeliveryId, WebhookEndpointId, WorkspaceId } from "../../model/ids.ts"
import {
  toWebhookDelivery,
  type WebhookDelivery,
  type WebhookDeliveryAttempt,
  type WebhookEndpointTest,
} from "../../model/webhook-delivery.ts"
import type { Clock } from "../../ports/clock.ts"
import type { EndpointChanges } from "../../ports/endpoint-changes.ts"
import type {
  Repositories,
  WebhookDeliveryMove,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from "../../ports/storage/index.ts"
import type { SpanAttributes } from "../../ports/tracing.ts"
import type { WebhookAttempt, WebhookTransport } from "../../ports/webhook-transport.ts"
import { type CircuitState, circuitAfter, circuitPosition, laneSizeFor, probing } from "../../rules/circuit-breaker.ts"
import { failingLongEnough } from "../../rules/endpoint-disabling.ts"
import { type Page, type PageQuery, pageOffset, pagePolicies, parsePageRequest, toPage } from "../../rules/paging.ts"
import { webhookSignatureHeaders } from "../../rules/webhook-signature.ts"
import type { Actor } from "../steps/actor.ts"
import { carryOutActions } from "../steps/decision-executor.ts"
import { deliveryCarriers, moveDelivery, type PlannedMove, plannedMove } from "../steps/delivery-moves.ts"
import { deliveryJobKey, deliveryQueue, jobKeysOf, waitingJobKey } from "../steps/delivery-queue.ts"
import { enqueueJob } from "../steps/job-queue.ts"
import { findLiveWebhookEndpoint, webhookEndpointNotFound } from "../steps/lookups.ts"
import { appendEvents, appendEventToEndpoint, webhookEndpointEventPayload } from "../steps/outbox.ts"
import { unsealed } from "../steps/secret-sealing.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { currentSpan, spannedPromise } from "../steps/trace-spans.ts"
import { inRead, inTransaction, type Lifted } from "../steps/transaction.ts"
import { inWorkspace, writeAccess } from "../steps/use-case.ts"
import { peekWorkspaceClock, workspaceClock } from "../steps/workspace-clock.ts"

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

/** What a webhook attempt's span says of it before it is sent: the delivery, its endpoint and event, which attempt. */
const attemptSpanAttributes = (row: WebhookDeliveryRecord, number: number): SpanAttributes => ({
  "payments.workspace_id": row.workspace_id,
  "payments.company_id": row.company_id,
  "payments.endpoint_id": row.endpoint_id,
  "payments.delivery_id": row.id,
  "payments.event_id": row.event_id,
  "payments.event_type": row.event_name,
  "payments.webhook.attempt": number,
})

/**
 * What an attempt's span says of its outcome: the status code of an answer, and `succeeded`
 * (a 200), `aborted` (the receiver said stop) or `failed`; a failure's code is the status, or
 * the transport's failure name (`timeout`, `connection_refused`) when nothing answered.
 */
const attemptSpanEnd = (attempt: WebhookAttempt): { attributes: SpanAttributes; error?: string } => {
  const event = eventOf(attempt).type
  const outcome = event === "succeed" ? "succeeded" : event === "abort" ? "aborted" : "failed"
  if (attempt.kind === "failed") return { attributes: { "payments.webhook.outcome": outcome }, error: attempt.failure }
  const attributes = { "payments.webhook.outcome": outcome, "http.response.status_code": attempt.status }
  return outcome === "succeeded" ? { attributes } : { attributes, error: String(attempt.status) }
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
          payload: {
            delivery_id: row.id,
            workspace_id: row.workspace_id,
            attempt_count: row.attempt_count,
            company_id: row.company_id,
          },
          workspaceId: row.workspace_id,
          queue: deliveryQueue(row.endpoint_id),
          key: waitingJobKey(row.id, row.attempt_count, until),
          delayMs,
        }),
      { discard: true },
    )
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
      after.circuit_open_until === before.circuit_open_until &&
      after.failing_since === before.failing_since
    if (!unchanged) yield* tx.webhookEndpoints.recordCircuit(endpoint.workspace_id, endpoint.id, after)
    return after
  })

/**
 * `read` made single-flight with freshness: a call is answered by a read that began after it,
 * shared with every call made before that read began; one read at a time.
 */
const freshRead = <A>(read: () => Promise<A>): (() => Promise<A>) => {
  let last: Promise<unknown> = Promise.resolve()
  let next: Promise<A> | undefined
  return () => {
    if (next === undefined) {
      const mine: Promise<A> = last.then(() => {
        // From here on a call waits for the read after this one: this one has begun.
        if (next === mine) next = undefined
        return read()
      })
      next = mine
      last = mine.catch(() => undefined)
    }
    return next
  }
}

/** A lane a delivery job (or an endpoint's test) holds: its deliveries, their endpoint, and whether it probes a half-open circuit. */
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

/** What writing a lane left: the endpoint's circuit, the endpoint if this write disabled it, and a summary. */
interface WrittenLane {
  readonly circuit: CircuitState
  readonly disabled: WebhookEndpointRecord | undefined
  readonly moved: ReadonlyArray<WebhookDeliveryRecord>
  readonly summary: string
}

/**
 * Sending a held lane, in the steps the delivery job and an endpoint's test share: open the
 * signing secrets, send, write every attempt in one transaction, then tell what the write changed.
 */
const makeLaneSending = (ports: ServicePorts) => {
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

  /** The endpoint's secret, and a rotated-out one that signs beside it until it expires (rotate_secret). */
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
   * Each delivery of the lane is the exact body of its event, signed with the endpoint's secret
   * (`Service-Signature`, and the Standard Webhooks headers with this attempt's timestamp), sent
   * through the transport within the timeout, unless the endpoint was deactivated or deleted
   * meanwhile. A probe goes alone; the rest of its lane goes only if it answers 200, else waits unsent.
   */
  const sendLane = (
    lane: HeldLane,
    secrets: SigningSecrets,
    stillActive: () => boolean | Promise<boolean>,
  ): Effect.Effect<ReadonlyArray<SentDelivery>> =>
    Effect.gen(function* () {
      const { rows, endpoint, clock, probe } = lane
      const { secret, previous } = secrets
      /**
       * One attempt of `row`, unless the endpoint is no longer active: signed first, so that
       * nothing lies between the check and the request but the check's own read, when it reads.
       */
      const send = (row: WebhookDeliveryRecord) =>
        FiberRef.getWith(currentSpan, (traced) =>
          Effect.promise(async (): Promise<SentDelivery> => {
            const number = row.attempt_count + 1
            const headers =
              secret === undefined
                ? undefined
                : await webhookSignatureHeaders({
                    body: row.payload,
                    eventId: row.event_id,
                    timestamp: Math.floor(ports.clock.now().getTime() / 1000),
                    secrets: previous === undefined ? [secret] : [secret, previous],
                  })
            // An answer known now is not awaited: an announcement could land in the turn an await yields.
            const active = stillActive()
            if (!(active === true || (await active))) {
              const logged = disabledAttempt(row.attempt_count, clock.now().toISOString())
              return { logged, event: { type: "disable" }, counted: false }
            }
            const at = clock.now().toISOString()
            if (headers === undefined) {
              const failed: WebhookAttempt = { kind: "failed", failure: "network_error", durationMs: 0 }
              return {
                logged: { ...loggedAttempt(number, at, failed), error: "secret_unavailable" },
                event: { type: "fail" },
                counted: true,
              }
            }
            const attempt = await spannedPromise(
              traced,
              "payments.webhook.attempt",
              { kind: "client", attributes: attemptSpanAttributes(row, number), ended: attemptSpanEnd },
              () =>
                ports.webhookTransport.send({
                  url: endpoint.url,
                  body: row.payload,
                  headers,
                  timeoutMs: ports.webhookTimeoutMs,
                }),
            )
            return { logged: loggedAttempt(number, at, attempt), event: eventOf(attempt), counted: true }
          }),
        )
      const [first, ...rest] = rows
      const probed = probe ? yield* send(first!) : undefined
      if (probed === undefined) return yield* Effect.forEach(rows, send, { concurrency: laneSendsAtOnce })
      if (probed.event.type !== "succeed") return [probed]
      return [probed, ...(yield* Effect.forEach(rest, send, { concurrency: laneSendsAtOnce }))]
    })

  /**
   * Deactivates the endpoint when its circuit after this lane says every attempt failed long
   * enough (`rules/endpoint-disabling.ts`), and writes the event saying so, which goes to the
   * company's other active endpoints subscribed to it: the endpoint disabled, or undefined (not
   * failing long enough, already inactive, or another writer disabled it first).
   */
  const disableIfFailing = (
    tx: Lifted<Repositories>,
    endpoint: WebhookEndpointRecord,
    circuit: CircuitState,
    now: Date,
  ) =>
    Effect.gen(function* () {
      if (!endpoint.active || circuit.failing_since === null || !failingLongEnough(circuit, now)) return undefined
      const at = now.toISOString()
      const disabled = yield* tx.webhookEndpoints.disable(endpoint.workspace_id, endpoint.id, {
        disabled_reason: "deliveries_failing",
        disabled_at: at,
        updated_at: at,
      })
      if (disabled === undefined) return undefined
      const payload = webhookEndpointEventPayload("WebhookEndpointEvents::DisabledEvent", {
        now,
        companyId: disabled.company_id,
        data: {
          id: disabled.id,
          url: disabled.url,
          disabled_reason: "deliveries_failing",
          disabled_at: at,
          failing_since: circuit.failing_since,
          consecutive_failures: circuit.consecutive_failures,
        },
      })
      yield* appendEvents(
        ports,
        tx,
        [{ workspaceId: disabled.workspace_id, companyId: disabled.company_id, payload }],
        { now: () => now },
      )
      return disabled
    })

  /**
   * In one transaction: every attempt logged and each delivery moved as the machine says
   * (succeeded on a 200, failed when the receiver aborts or the attempts run out, else its next
   * attempt queued on the schedule), the endpoint's circuit written (and the endpoint disabled
   * when it has failed long enough), and what a failed probe left unsent postponed until the
   * circuit closes. `guardJobKey` names a job kept only in case this write never happened (a
   * test's), removed with it.
   */
  const writeLane = (
    lane: HeldLane,
    sent: ReadonlyArray<SentDelivery>,
    workspaceId: WorkspaceId,
    guardJobKey?: string,
  ): Effect.Effect<WrittenLane> =>
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
        if (guardJobKey !== undefined) yield* tx.jobs.removeUnstarted([guardJobKey])
        const circuit = yield* recordAttempts(tx, endpoint, probe, sent, now)
        const disabled = yield* disableIfFailing(tx, endpoint, circuit, now)
        const unsent = rows.slice(sent.length)
        if (unsent.length > 0) yield* postpone(ports, tx, now, unsent, circuit.circuit_open_until ?? now.toISOString())
        return {
          circuit,
          disabled,
          moved,
          summary: `${moved.filter((row) => row.status === "succeeded").length} of ${rows.length} delivered`,
        }
      }),
    )

  /**
   * Once the lane's write has committed: the job log is told that its failures opened the
   * endpoint's circuit, its 200 closed it, or the endpoint was disabled, and the endpoint's other
   * lanes that it was.
   */
  const afterWrite = (endpoint: WebhookEndpointRecord, written: WrittenLane) =>
    Effect.gen(function* () {
      const { circuit, disabled } = written
      const isOpen = circuit.circuit_open_until !== null
      if ((endpoint.circuit_open_until !== null) !== isOpen) {
        ports.jobLog?.({
          circuit: isOpen ? "opened" : "closed",
          workspaceId: endpoint.workspace_id,
          endpointId: endpoint.id,
          consecutiveFailures: circuit.consecutive_failures,
          until: circuit.circuit_open_until,
        })
      }
      if (disabled === undefined) return
      ports.jobLog?.({
        circuit: "disabled",
        workspaceId: endpoint.workspace_id,
        endpointId: endpoint.id,
        consecutiveFailures: circuit.consecutive_failures,
        until: circuit.circuit_open_until,
      })
      if (ports.endpointChanges !== undefined) {
        const changes = ports.endpointChanges
        yield* Effect.promise(() => changes.announce(endpoint.id))
      }
    })

  return { signingSecrets, sendLane, writeLane, afterWrite }
}

/** How long a test's own job waits before it sends the test, in case the request's process died first: past one timeout. */
const testGuardMarginMs = 60_000

/** The delivery log of an endpoint, resending one of its deliveries now, and testing the endpoint. */
export const makeWebhookDeliveries = (ports: ServicePorts) => {
  const sending = makeLaneSending(ports)

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

  /**
   * The first step of a test: a `WebhookEndpointEvents::TestEvent` written to the outbox (sent to
   * no other endpoint) and its delivery to this endpoint, held in a lane of its own so that no
   * delivery job sends it meanwhile, with a job due after the attempt's timeout that sends it
   * should this request die before it writes its attempt.
   */
  const writeTest = (actor: Actor, companyId: CompanyId | null, endpointId: WebhookEndpointId) =>
    inWorkspace(ports, actor, ({ tx, readClock }) =>
      Effect.gen(function* () {
        const endpoint = yield* findLiveWebhookEndpoint(tx, actor, companyId, endpointId)
        const clock = yield* readClock
        const now = clock.now()
        const payload = webhookEndpointEventPayload("WebhookEndpointEvents::TestEvent", {
          now,
          companyId: endpoint.company_id,
          data: { id: endpoint.id, url: endpoint.url },
        })
        const row = yield* appendEventToEndpoint(ports, tx, endpoint, payload, clock)
        yield* enqueueJob(ports, tx, {
          kind: "deliver_webhook",
          payload: {
            delivery_id: row.id,
            workspace_id: row.workspace_id,
            attempt_count: 0,
            company_id: row.company_id,
          },
          key: deliveryJobKey(row.id, 0),
          workspaceId: row.workspace_id,
          queue: deliveryQueue(row.endpoint_id),
          delayMs: ports.webhookTimeoutMs + testGuardMarginMs,
        })
        return { endpoint, row }
      }),
    )

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
        return yield* inRead(ports.storage, (tx) =>
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
          const moved = yield* moveDelivery(ports, clock, tx, row, { type: "resend" }, { counted: false })
          // Another writer moved it between the read and the write: what it is now, resent by that one.
          return toWebhookDelivery(moved ?? (yield* findDelivery(tx, actor, companyId, endpointId, id)))
        }),
      ).pipe(writeAccess(actor)),

    /**
     * Sends the endpoint a signed `WebhookEndpointEvents::TestEvent` now, during the call (within
     * the transport's timeout, through its address checks), and answers that attempt. The test is
     * a delivery like any other (Svix's rule): it is in the delivery log, its outcome counts toward
     * the endpoint's circuit and its disabling, and a failed one is retried on the schedule. It goes
     * whatever the endpoint's circuit, and to an inactive endpoint too (to check a receiver before
     * re-activating it), whose retries then fail unsent as every delivery of an inactive endpoint.
     *
     * @example
     * declare const endpointId: WebhookEndpointId
     * const { outcome, status_code } = await engine.webhookDeliveries.test(actor, null, endpointId)
     */
    test: (
      actor: Actor,
      companyId: CompanyId | null,
      endpointId: WebhookEndpointId,
    ): Effect.Effect<WebhookEndpointTest, Forbidden | NotFound> =>
      Effect.gen(function* () {
        const written = yield* writeTest(actor, companyId, endpointId)
        // Read apart from the first step: a keyed request's replay of it gives back rows, not a clock.
        const clock = yield* peekWorkspaceClock(ports, actor.workspaceId)
        const lane: HeldLane = { rows: [written.row], endpoint: written.endpoint, clock, probe: false }
        const secrets = yield* sending.signingSecrets(lane)
        const sent = yield* sending.sendLane(lane, secrets, () => true)
        const result = yield* sending.writeLane(lane, sent, actor.workspaceId, deliveryJobKey(written.row.id, 0))
        yield* sending.afterWrite(written.endpoint, result)
        const attempt = sent[0]!.logged
        const delivery = result.moved[0] ?? written.row
        return {
          outcome: sent[0]!.event.type === "succeed" ? ("succeeded" as const) : ("failed" as const),
          status_code: attempt.status_code,
          duration_ms: attempt.duration_ms,
          error: attempt.error,
          response_excerpt: attempt.response_excerpt,
          attempted_at: attempt.attempted_at,
          delivery: toWebhookDelivery(delivery),
        }
      }).pipe(writeAccess(actor)),
  }
}

export type WebhookDeliveries = ReturnType<typeof makeWebhookDeliveries>

/**
 * The delivery job (deliver_webhook): a delivery, and with it the other due deliveries of its
 * endpoint, sent in a lane in four steps: hold the lane, open the signing secrets, send, write.
 */
export const makeWebhookDeliveryJobs = (ports: ServicePorts) => {
  const sending = makeLaneSending(ports)

  /**
   * Fails, unsent, a delivery whose endpoint was deactivated or deleted, with what its lane held
   * when its process died: no other job will send those.
   */
  const failUnsent = (tx: Lifted<Repositories>, clock: Clock, row: WebhookDeliveryRecord, now: string) =>
    Effect.gen(function* () {
      const due = yield* tx.webhookDeliveries.listDue(row.endpoint_id, now, row.id, maxLaneDeliveries - 1)
      for (const each of [row, ...due.filter((d) => d.lane_id === row.id)]) {
        const logged = disabledAttempt(each.attempt_count, now)
        yield* moveDelivery(ports, clock, tx, each, { type: "disable" }, { logged, counted: false })
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
      const laneSize = probe ? maxLaneDeliveries : laneSizeFor(endpoint, maxLaneDeliveries)
      // What this lane held when its process died stays in it, whatever its size now.
      const [head, ...others] = yield* tx.webhookDeliveries.takeLane(row.id, endpoint.id, at.toISOString(), {
        size: laneSize,
        reach: maxLaneDeliveries - 1,
      })
      if (head === undefined) return undefined
      // One probe per cool-down, even if this process dies before its answer is written.
      if (probe) yield* tx.webhookEndpoints.recordCircuit(endpoint.workspace_id, endpoint.id, probing(endpoint, at))
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
        const start = yield* tx.webhookDeliveries.findForLane(id)
        if (start === undefined) return undefined
        const { delivery: row, endpoint, workspaceLanes } = start
        if (row.status !== "pending" || row.attempt_count !== attemptCount) return undefined
        // Another job's lane is sending it; that job writes its attempt.
        if (row.lane_id !== null && row.lane_id !== row.id) return undefined
        const clock = yield* workspaceClock(ports, tx, workspaceId)
        const at = clock.now()
        const now = at.toISOString()
        if (!endpoint?.active) return yield* failUnsent(tx, clock, row, now).pipe(Effect.as(undefined))
        const position = circuitPosition(endpoint, now)
        if (position === "open") return yield* waitForCircuit(tx, row, endpoint, at).pipe(Effect.as(undefined))
        // A lane of its own resumed after a crash is already counted in its workspace's share.
        if (row.lane_id === null && workspaceLanes >= ports.webhookWorkspaceLanes) {
          yield* postpone(ports, tx, at, [row], new Date(at.getTime() + workspaceShareWaitMs).toISOString())
          return undefined
        }
        return yield* takeLane(tx, clock, at, row, endpoint, position === "half_open")
      }),
    )

  /**
   * Whether the lane's endpoint is still active, as each send asks just before its request: yes
   * without a read while the lane has not been told of a change since `since` (a mark taken before
   * the lane was held, see {@link EndpointChanges}); once told, and on a storage with no channel, a
   * read that began after the send asked, one read serving every send that asked before it began.
   * `stop` ends the watch.
   */
  const watchActive = (endpoint: WebhookEndpointRecord, since: number | undefined) => {
    const changes = ports.endpointChanges
    let told = changes === undefined || since === undefined
    const stop =
      changes === undefined || since === undefined
        ? () => {}
        : changes.watch(endpoint.id, since, () => {
            told = true
          })
    const read = freshRead(async () => {
      const storage = ports.storage
      const work = (tx: Repositories) => tx.webhookEndpoints.find(endpoint.workspace_id, endpoint.id)
      const current = await (storage.read === undefined ? storage.transaction(work) : storage.read(work))
      return current?.active === true
    })
    return { stillActive: (): boolean | Promise<boolean> => (told ? read() : true), stop }
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
        // Taken before the hold reads the endpoint: a change announced after it reaches the lane.
        const since = ports.endpointChanges?.mark()
        const lane = yield* holdLane(id, workspaceId, attemptCount)
        if (lane === undefined) return "skipped"
        const secrets = yield* sending.signingSecrets(lane)
        const sent = yield* Effect.acquireUseRelease(
          Effect.sync(() => watchActive(lane.endpoint, since)),
          (watch) => sending.sendLane(lane, secrets, watch.stillActive),
          (watch) => Effect.sync(watch.stop),
        )
        const written = yield* sending.writeLane(lane, sent, workspaceId)
        yield* sending.afterWrite(lane.endpoint, written)
        return written.summary
      }),
  }
}
