import type { CompanyId, WebhookEndpointId, WorkspaceId } from "../../model/ids.ts"
import type { WebhookEndpointRecord } from "../../model/webhook-endpoint.ts"
import type { Slice, Window } from "./list-window.ts"

export type { WebhookEndpointRecord } from "../../model/webhook-endpoint.ts"

/** What a list of endpoints is filtered by. */
export interface WebhookEndpointFilter {
  readonly active?: boolean
}

/** What an update writes: any of url, active and subscriptions, with its time. */
export type WebhookEndpointChange = Partial<Pick<WebhookEndpointRecord, "url" | "active" | "subscriptions">> &
  Pick<WebhookEndpointRecord, "updated_at">

/**
 * Webhook endpoints, each scoped by its workspace (reads and writes by id) or its company
 * (lists). A deleted endpoint is gone for every method: found by none, changed by none.
 */
export interface WebhookEndpointRepository {
  insert(row: WebhookEndpointRecord): Promise<void>
  /** The live endpoint with that id in the workspace, else undefined. */
  find(workspaceId: WorkspaceId, id: WebhookEndpointId): Promise<WebhookEndpointRecord | undefined>
  /** The company's live, active endpoints, in id order: those an event of the company goes to. */
  listActive(companyId: CompanyId): Promise<ReadonlyArray<WebhookEndpointRecord>>
  /** Live endpoints of the company matching `filter`, in id order. */
  list(companyId: CompanyId, filter: WebhookEndpointFilter, window: Window): Promise<Slice<WebhookEndpointRecord>>
  /** Writes `change` to the live endpoint: the endpoint as it now is, else undefined. */
  update(
    workspaceId: WorkspaceId,
    id: WebhookEndpointId,
    change: WebhookEndpointChange,
  ): Promise<WebhookEndpointRecord | undefined>
  /**
   * Flips `active` of the live endpoint in one conditional write (two toggles, however they
   * overlap, leave it as it was): the endpoint as it now is, else undefined.
   */
  toggle(workspaceId: WorkspaceId, id: WebhookEndpointId, updatedAt: string): Promise<WebhookEndpointRecord | undefined>
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
  ): Promise<WebhookEndpointRecord | undefined>
  /**
   * Writes the endpoint's circuit (its failures in a row and until when it is open), leaving
   * `updated_at` as it is: the endpoint as it now is, else undefined (deleted meanwhile).
   */
  recordCircuit(
    workspaceId: WorkspaceId,
    id: WebhookEndpointId,
    circuit: Pick<WebhookEndpointRecord, "consecutive_failures" | "circuit_open_until">,
  ): Promise<WebhookEndpointRecord | undefined>
  /** Soft-deletes the live endpoint; false when there was none. */
  delete(workspaceId: WorkspaceId, id: WebhookEndpointId, deletedAt: string): Promise<boolean>
}
