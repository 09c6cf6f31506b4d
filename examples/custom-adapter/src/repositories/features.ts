import type { FeatureRecord, FeatureRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { findScoped, freeze } from "./rows.ts"

const byApplicationId = (a: FeatureRecord, b: FeatureRecord) =>
  a.application_id < b.application_id ? -1 : a.application_id > b.application_id ? 1 : 0

/**
 * Features over one transaction's tables, by application id. Transactions run one at a time, so
 * "insert unless the entity has one" and "change only from this status" need no lock: nothing
 * can come between the check and the write.
 */
export const memoryFeatureRepository = ({ features }: Pick<Tables, "features">): FeatureRepository => ({
  insertOrGet: async (row) => {
    for (const existing of features.values()) {
      if (existing.entity_id === row.entity_id && existing.feature_identifier === row.feature_identifier) {
        return { inserted: false, feature: existing }
      }
    }
    const stored = freeze(row)
    features.set(row.application_id, stored)
    return { inserted: true, feature: stored }
  },
  findByApplicationId: async (workspaceId, applicationId) =>
    findScoped(features, applicationId, (row) => row.workspace_id === workspaceId),
  listByEntity: async (entityId) =>
    [...features.values()].filter((row) => row.entity_id === entityId).sort(byApplicationId),
  compareAndSetStatus: async (applicationId, from, to, updatedAt) => {
    const row = features.get(applicationId)
    if (row?.status !== from) return undefined
    const moved = freeze({ ...row, status: to, updated_at: updatedAt })
    features.set(applicationId, moved)
    return moved
  },
})
