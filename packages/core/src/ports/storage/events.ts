import type { EventFilter, EventRecord } from "../../model/types/events.ts"
import type { EventId, WorkspaceId } from "../../model/types/ids.ts"
import type { WebhookEndpointRecord } from "../../model/types/webhook-endpoint.ts"
import type { Awaitable } from "../awaitable.ts"

import type { Slice, Window } from "./list-window.ts"

export type { EventFilter, EventRecord } from "../../model/types/events.ts"

export interface EventRepository {
  /** Written in the same transaction as the change it reports (transactional outbox). */
  append(row: EventRecord): Awaitable<void>
  /**
   * Appends the event as {@link append} does and answers its company's live, active webhook
   * endpoints in id order, as `webhookEndpoints.listActive` would right after: the endpoints the
   * event may go to. In one statement where the database allows, so that an event and its fan-out
   * cost one round trip.
   */
  appendListingEndpoints(row: EventRecord): Awaitable<ReadonlyArray<WebhookEndpointRecord>>
  /** The workspace's event of this id; another workspace's is undefined, as a missing one. */
  find(workspaceId: WorkspaceId, id: EventId): Awaitable<EventRecord | undefined>
  /**
   * The workspace's events that `filter` keeps (each given field must match; times compare as
   * `toISOString` text), newest first by `created_at`, then by id descending.
   */
  list(workspaceId: WorkspaceId, filter: EventFilter, window: Window): Awaitable<Slice<EventRecord>>
}
