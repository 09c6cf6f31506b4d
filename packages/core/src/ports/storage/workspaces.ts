import type { ApiKeyScope } from "../../model/session.ts"
import type { StoredApiKey, StoredWorkspace } from "../../model/workspace.ts"

/** A stored workspace: the model's `StoredWorkspace` Schema. */
export type WorkspaceRecord = typeof StoredWorkspace.Type

export interface WorkspaceRepository {
  /** Inserts unless a workspace of that name exists; returns the one stored either way. */
  insertOrGet(row: WorkspaceRecord): Promise<WorkspaceRecord>
}

export type { ApiKeyScope }

/** A stored API key: the model's `StoredApiKey` Schema. */
export type ApiKeyRecord = typeof StoredApiKey.Type

export interface ApiKeyRepository {
  insert(row: ApiKeyRecord): Promise<void>
  findByKey(key: string): Promise<ApiKeyRecord | undefined>
  count(): Promise<number>
}

export interface SettingRepository {
  get(name: string): Promise<string | undefined>
  /** Stores the value unless the setting exists; returns the stored value either way. */
  putIfAbsent(name: string, value: string): Promise<string>
}
