import type { OnboardingRepository, PersonRecord, PersonRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { byId, findScoped, freeze, windowOf } from "./rows.ts"

/** Entity onboardings over one transaction's tables: one per entity, found by workspace and entity. */
export const memoryOnboardingRepository = (t: Pick<Tables, "onboardings">): OnboardingRepository => {
  const ofEntity = (workspaceId: string, entityId: string) =>
    [...t.onboardings.values()].find((row) => row.workspace_id === workspaceId && row.entity_id === entityId)
  return {
    insertIfNone: async (row) => {
      if ([...t.onboardings.values()].some((other) => other.entity_id === row.entity_id)) return false
      t.onboardings.set(row.id, freeze(row))
      return true
    },
    findByEntity: async (workspaceId, entityId) => ofEntity(workspaceId, entityId),
    update: async (workspaceId, id, change) => {
      const row = findScoped(t.onboardings, id, (r) => r.workspace_id === workspaceId)
      if (row === undefined) return undefined
      const changed = freeze({ ...row, ...change })
      t.onboardings.set(id, changed)
      return changed
    },
    setStatus: async (workspaceId, entityId, change) => {
      const row = ofEntity(workspaceId, entityId)
      if (row === undefined) return false
      t.onboardings.set(row.id, freeze({ ...row, ...change }))
      return true
    },
  }
}

/** Onboarding persons over one transaction's tables, found and listed by workspace and entity. */
export const memoryPersonRepository = (t: Pick<Tables, "onboardingPersons">): PersonRepository => {
  const owned = (workspaceId: string, entityId: string) => (row: PersonRecord) =>
    row.workspace_id === workspaceId && row.entity_id === entityId
  return {
    insert: async (row) => {
      t.onboardingPersons.set(row.id, freeze(row))
    },
    find: async (workspaceId, entityId, id) => findScoped(t.onboardingPersons, id, owned(workspaceId, entityId)),
    list: async (workspaceId, entityId, window) =>
      windowOf(t.onboardingPersons.values(), owned(workspaceId, entityId), window),
    listAll: async (workspaceId, entityId) =>
      [...t.onboardingPersons.values()].filter(owned(workspaceId, entityId)).sort(byId),
    update: async (workspaceId, entityId, id, change) => {
      const row = findScoped(t.onboardingPersons, id, owned(workspaceId, entityId))
      if (row === undefined) return undefined
      const changed = freeze({ ...row, ...change })
      t.onboardingPersons.set(id, changed)
      return changed
    },
    delete: async (workspaceId, entityId, id) => {
      if (findScoped(t.onboardingPersons, id, owned(workspaceId, entityId)) === undefined) return false
      t.onboardingPersons.delete(id)
      return true
    },
  }
}
