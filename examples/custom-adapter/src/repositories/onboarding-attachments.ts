import type { AttachmentRecord, AttachmentRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { findScoped, freeze, windowOf } from "./rows.ts"

/** Onboarding attachments over one transaction's tables, found, listed and deleted by workspace and entity. */
export const memoryAttachmentRepository = (t: Pick<Tables, "onboardingAttachments">): AttachmentRepository => {
  const owned = (workspaceId: string, entityId: string) => (row: AttachmentRecord) =>
    row.workspace_id === workspaceId && row.entity_id === entityId
  return {
    insert: async (row) => {
      t.onboardingAttachments.set(row.id, freeze(row))
    },
    find: async (workspaceId, entityId, id) => findScoped(t.onboardingAttachments, id, owned(workspaceId, entityId)),
    list: async (workspaceId, entityId, window) =>
      windowOf(t.onboardingAttachments.values(), owned(workspaceId, entityId), window),
    delete: async (workspaceId, entityId, id) => {
      if (findScoped(t.onboardingAttachments, id, owned(workspaceId, entityId)) === undefined) return false
      t.onboardingAttachments.delete(id)
      return true
    },
  }
}
