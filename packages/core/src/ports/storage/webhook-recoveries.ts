import type { WebhookRecoveryId, WorkspaceId } from "../../model/types/ids.ts"
import type { WebhookRecoveryRecord } from "../../model/types/webhook-recovery.ts"
import type { Awaitable } from "../awaitable.ts"

export type { WebhookRecoveryRecord } from "../../model/types/webhook-recovery.ts"

/** What a recovery's job writes as it goes: its status, how far it went, what it queued. */
export type WebhookRecoveryProgress = Pick<
  WebhookRecoveryRecord,
  "status" | "cursor" | "deliveries_queued" | "updated_at" | "completed_at"
>

/** Recoveries of endpoints' failed deliveries, each scoped by its workspace. */
export interface WebhookRecoveryRepository {
  insert(row: WebhookRecoveryRecord): Awaitable<void>
  /** The workspace's recovery of that id, else undefined. */
  find(workspaceId: WorkspaceId, id: WebhookRecoveryId): Awaitable<WebhookRecoveryRecord | undefined>
  /**
   * Writes `progress` if the recovery still has the status and cursor it was read with (no other
   * run of its job wrote since): the recovery as it now is, else undefined.
   */
  advance(
    workspaceId: WorkspaceId,
    id: WebhookRecoveryId,
    from: Pick<WebhookRecoveryRecord, "status" | "cursor">,
    progress: WebhookRecoveryProgress,
  ): Awaitable<WebhookRecoveryRecord | undefined>
}
