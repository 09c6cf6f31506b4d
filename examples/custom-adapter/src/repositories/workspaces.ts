import type { ApiKeyRepository, SettingRepository, WorkspaceRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { freeze } from "./rows.ts"

/** Workspaces over one transaction's tables; a name is taken once. */
export const memoryWorkspaceRepository = (t: Pick<Tables, "workspaces">): WorkspaceRepository => ({
  insertOrGet: async (row) => {
    for (const existing of t.workspaces.values()) if (existing.name === row.name) return existing
    t.workspaces.set(row.id, freeze(row))
    return row
  },
})

/** API keys, by their public key. */
export const memoryApiKeyRepository = (t: Pick<Tables, "apiKeys">): ApiKeyRepository => ({
  insert: async (row) => {
    if (t.apiKeys.has(row.key)) throw new Error(`duplicate api key ${row.key}`)
    t.apiKeys.set(row.key, freeze(row))
  },
  findByKey: async (key) => t.apiKeys.get(key),
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
})
