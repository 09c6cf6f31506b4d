import type { EntityId, OnboardingAttachmentId, WorkspaceId } from "../../model/types/ids.ts"
import type { AttachmentRecord } from "../../model/types/onboarding-attachment.ts"
import type { Awaitable } from "../awaitable.ts"
import type { Slice, Window } from "./list-window.ts"

export type { AttachmentRecord } from "../../model/types/onboarding-attachment.ts"

/**
 * The attachments (supporting documents) of entities' onboardings, each read and written under
 * its workspace and entity. A deleted attachment is gone: the row is removed.
 */
export interface AttachmentRepository {
  insert(row: AttachmentRecord): Awaitable<void>
  /** The entity's attachment with that id in the workspace, else undefined. */
  find(
    workspaceId: WorkspaceId,
    entityId: EntityId,
    id: OnboardingAttachmentId,
  ): Awaitable<AttachmentRecord | undefined>
  /** The entity's attachments, in id order. */
  list(workspaceId: WorkspaceId, entityId: EntityId, window: Window): Awaitable<Slice<AttachmentRecord>>
  /** Removes the attachment's row; false when there was none. */
  delete(workspaceId: WorkspaceId, entityId: EntityId, id: OnboardingAttachmentId): Awaitable<boolean>
}
