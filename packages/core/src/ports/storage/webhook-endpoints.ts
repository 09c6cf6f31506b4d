import type { CompanyId, WebhookEndpointId, WorkspaceId } from "../../model/types/ids.ts"
import type { WebhookEndpointRecord } from "../../model/types/webhook-endpoint.ts"
import type { Awaitable } from "../awaitable.ts"
import type { Slice, Window } from "./list-window.ts"

export type { WebhookEndpointRecord } from "../../model/types/webhook-endpoint.ts"

/** What a list of endpoints is filtered by. */
export interface WebhookEndpointFilter {
  readonly active?: boolean
}

/**
 * What an update writes: any of url, active and subscriptions, and (re-activating an endpoint)
 * its disabled reason and circuit, with its time.
 */
export type WebhookEndpointChange = Partial<
  Pick<
    WebhookEndpointRecord,
    | "url"
    | "active"
    | "subscriptions"
    | "disabled_reason"
    | "disabled_at"
    | "consecutive_failures"
    | "circuit_open_until"
    | "failing_since"
  >
> &
  Pick<WebhookEndpointRecord, "updated_at">

/**
 * Webhook endpoints, each scoped by its workspace (reads and writes by id) or its company
 * (lists). A deleted endpoint is gone for every method: found by none, changed by none.
 */
export interface WebhookEndpointRepository {
  insert(row: WebhookEndpointRecord): Awaitable<void>
  /** The live endpoint with that id in the workspace, else undefined. */
  find(workspaceId: WorkspaceId, id: WebhookEndpointId): Awaitable<WebhookEndpointRecord | undefined>
  /** The company's live, active endpoints, in id order: those an event of the company goes to. */
  listActive(companyId: CompanyId): Awaitable<ReadonlyArray<WebhookEndpointRecord>>
  /** Live endpoints of the company matching `filter`, in id order. */
  list(companyId: CompanyId, filter: WebhookEndpointFilter, window: Window): Awaitable<Slice<WebhookEndpointRecord>>
  /** Writes `change` to the live endpoint: the endpoint as it now is, else undefined. */
  update(
    workspaceId: WorkspaceId,
    id: WebhookEndpointId,
    change: WebhookEndpointChange,
  ): Awaitable<WebhookEndpointRecord | undefined>
  /**
   * Flips `active` of the live endpoint in one conditional write (two toggles, however they
   * overlap, leave it as it was): the endpoint as it now is, else undefined.
   */
  toggle(
    workspaceId: WorkspaceId,
    id: WebhookEndpointId,
    updatedAt: string,
  ): Awaitable<WebhookEndpointRecord | undefined>
  /**
   * Writes a new sealed secret to the live endpoint if its secret is still `from` (two rotations
   * racing: one wins), keeping `previous` (the old one, sealed) until `previousExpiresAt`: the
   * endpoint as it now is, else undefined.
   */
  replaceSecret(
    workspaceId: WorkspaceId,
    id: WebhookEndpointId,
    from: string,
    change: Pick<WebhookEndpointRecord, "secret" | "previous_secret" | "previous_secret_expires_at" | "updated_at">,
  ): Awaitable<WebhookEndpointRecord | undefined>
  /**
   * Writes the endpoint's circuit (its failures in a row, until when it is open, since when it
   * fails), leaving `updated_at` as it is: the endpoint as it now is, else undefined (deleted
   * meanwhile).
   */
  recordCircuit(
    workspaceId: WorkspaceId,
    id: WebhookEndpointId,
    circuit: Pick<WebhookEndpointRecord, "consecutive_failures" | "circuit_open_until" | "failing_since">,
  ): Awaitable<WebhookEndpointRecord | undefined>
  /**
   * Deactivates the live endpoint if it is still active, writing why and when, in one conditional
   * write (two lanes disabling it at once: one does): the endpoint as it now is, else undefined
   * (already inactive, deleted, or another workspace's).
   */
  disable(
    workspaceId: WorkspaceId,
    id: WebhookEndpointId,
    change: Pick<WebhookEndpointRecord, "disabled_reason" | "disabled_at" | "updated_at">,
  ): Awaitable<WebhookEndpointRecord | undefined>
  /** Soft-deletes the live endpoint; false when there was none. */
  delete(workspaceId: WorkspaceId, id: WebhookEndpointId, deletedAt: string): Awaitable<boolean>
}
