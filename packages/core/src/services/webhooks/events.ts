import { Effect } from "effect"
import { type Invalid, NotFound } from "../../errors.ts"
import { EventListQuery, type EventResource, eventFilterOf, toEventResource } from "../../model/events.ts"
import type { EventId } from "../../model/ids.ts"
import { type Page, type PageQuery, pageOffset, pagePolicies, parsePageRequest, toPage } from "../../rules/paging.ts"
import type { Actor } from "../steps/actor.ts"
import { decodeQuery } from "../steps/decode-input.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inRead } from "../steps/transaction.ts"

/** The answer for an event of no such id, or of another workspace: the same, so neither is told apart. */
const eventNotFound = () => new NotFound({ field: "id", message: "Event not found" })

/**
 * What happened in a workspace, read back: the outbox's events with the payloads their webhooks
 * carry. The engine deletes none, so each is kept at least `eventRetentionDays`.
 */
export const makeEvents = (ports: ServicePorts) => ({
  /**
   * The workspace's events, newest first, 25 a page, filtered by `type`, `resource_id`,
   * `created_from` (inclusive) and `created_before` (exclusive).
   *
   * @example
   * declare const paymentId: PaymentId
   * const page = await engine.events.list(actor, { resource_id: paymentId })
   */
  list: (
    actor: Actor,
    query: PageQuery & {
      readonly type?: unknown
      readonly resource_id?: unknown
      readonly created_from?: unknown
      readonly created_before?: unknown
    } = {},
  ): Effect.Effect<Page<EventResource>, Invalid> =>
    Effect.gen(function* () {
      const request = yield* parsePageRequest(query, pagePolicies.events)
      const filter = eventFilterOf(yield* decodeQuery(EventListQuery, query))
      const slice = yield* inRead(ports.storage, (tx) =>
        tx.events.list(actor.workspaceId, filter, { offset: pageOffset(request), limit: request.perPage }),
      )
      return toPage(slice.rows.map(toEventResource), slice.total, request)
    }),

  /** One event of the workspace; another workspace's is not found, as a missing one. */
  get: (actor: Actor, id: EventId): Effect.Effect<EventResource, NotFound> =>
    Effect.gen(function* () {
      const row = yield* inRead(ports.storage, (tx) => tx.events.find(actor.workspaceId, id))
      if (row === undefined) return yield* Effect.fail(eventNotFound())
      return toEventResource(row)
    }),
})

export type Events = ReturnType<typeof makeEvents>
