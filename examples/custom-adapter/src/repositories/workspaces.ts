import type { ApiKeyRepository, SettingRepository, WorkspaceRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { byId, freeze } from "./rows.ts"

/** Workspaces over one transaction's tables; a name is taken once. */
export const memoryWorkspaceRepository = (t: Pick<Tables, "workspaces">): WorkspaceRepository => ({
  insertOrGet: async (row) => {
    for (const existing of t.workspaces.values()) if (existing.name === row.name) return existing
    t.workspaces.set(row.id, freeze(row))
    return row
  },
  findByName: async (name) => [...t.workspaces.values()].find((row) => row.name === name),
  findById: async (id) => t.workspaces.get(id),
})

const apiKeyById = (t: Pick<Tables, "apiKeys">, id: string) => [...t.apiKeys.values()].find((row) => row.id === id)

/** API keys, by their public key; a lookup by id walks them (an operator's or a cached check). */
export const memoryApiKeyRepository = (t: Pick<Tables, "apiKeys">): ApiKeyRepository => ({
  insert: async (row) => {
    if (t.apiKeys.has(row.key)) throw new Error(`duplicate api key ${row.key}`)
    t.apiKeys.set(row.key, freeze(row))
  },
  findByKey: async (key) => t.apiKeys.get(key),
  findById: async (id) => apiKeyById(t, id),
  list: async (workspaceId) =>
    [...t.apiKeys.values()].filter((row) => workspaceId === undefined || row.workspace_id === workspaceId).sort(byId),
  revoke: async (id, revokedAt) => {
    const row = apiKeyById(t, id)
    if (row === undefined || row.revoked_at !== null) return row
    const revoked = freeze({ ...row, revoked_at: revokedAt })
    t.apiKeys.set(row.key, revoked)
    return revoked
  },
  rotateSecret: async (id, currentHash, rotation) => {
    const row = apiKeyById(t, id)
    if (row === undefined || row.revoked_at !== null || row.secret_hash !== currentHash) return undefined
    const rotated = freeze({ ...row, ...rotation })
    t.apiKeys.set(row.key, rotated)
    return rotated
  },
  count: async () => t.apiKeys.size,
})

/** Settings written once: the first value stays. */
export const memorySettingRepository = (t: Pick<Tables, "settings">): SettingRepository => ({
  get: async (name) => t.settings.get(name),
  putIfAbsent: async (name, value) => {
    const existing = t.settings.get(name)
    if (existing !== undefined) return existing
    t.settings.set(name, value)
    return value
  },
  remove: async (name) => t.settings.delete(name),
})
