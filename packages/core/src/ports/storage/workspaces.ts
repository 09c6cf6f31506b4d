import type { ApiKeyScope } from "../../model/session.ts"

export interface WorkspaceRecord {
  readonly id: string
  readonly name: string
  readonly created_at: string
}

export interface WorkspaceRepository {
  /** Inserts unless a workspace of that name exists; returns the one stored either way. */
  insertOrGet(row: WorkspaceRecord): Promise<WorkspaceRecord>
}

export type { ApiKeyScope }

export interface ApiKeyRecord {
  readonly id: string
  readonly workspace_id: string
  /** The public half a client sends as `api_key`. Unique. */
  readonly key: string
  readonly secret_hash: string
  readonly scope: ApiKeyScope
  readonly created_at: string
}

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
