import type { ApiKeyScope } from "../../model/session.ts"

export interface WorkspaceRecord {
  readonly id: string
  readonly name: string
  readonly created_at: string
}

export interface WorkspaceRepository {
  /** Inserts unless a workspace of that name exists; returns the one stored either way. */
  insertOrGet(row: WorkspaceRecord): Promise<WorkspaceRecord>
  /** The workspace whose name is exactly `name` (byte for byte: no case folding, no wildcards). */
  findByName(name: string): Promise<WorkspaceRecord | undefined>
  findById(id: string): Promise<WorkspaceRecord | undefined>
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
  /** When the key was revoked; null while it works. A revoked key never works again. */
  readonly revoked_at: string | null
  /** When the secret was last replaced; null for a key never rotated. */
  readonly rotated_at: string | null
  /** The hash of the secret before the last rotation, accepted until `previous_secret_expires_at`. */
  readonly previous_secret_hash: string | null
  readonly previous_secret_expires_at: string | null
}

/** What a rotation writes: the new secret, and the old one kept for its grace period. */
export interface SecretRotation {
  readonly secret_hash: string
  readonly previous_secret_hash: string
  readonly previous_secret_expires_at: string
  readonly rotated_at: string
}

export interface ApiKeyRepository {
  insert(row: ApiKeyRecord): Promise<void>
  findByKey(key: string): Promise<ApiKeyRecord | undefined>
  findById(id: string): Promise<ApiKeyRecord | undefined>
  /** The keys of one workspace, or of every workspace when `workspaceId` is undefined, in id order. */
  list(workspaceId: string | undefined): Promise<ReadonlyArray<ApiKeyRecord>>
  /**
   * Stamps `revoked_at` on a key not revoked yet, and returns the key as stored afterwards (a key
   * revoked before keeps its first stamp); undefined when there is no such key.
   */
  revoke(id: string, revokedAt: string): Promise<ApiKeyRecord | undefined>
  /**
   * Compare-and-set: writes the rotation only if the key is not revoked and its secret hash is
   * still `currentHash` (no other rotation or revocation came in between); the key as stored
   * afterwards, or undefined when nothing was written.
   */
  rotateSecret(id: string, currentHash: string, rotation: SecretRotation): Promise<ApiKeyRecord | undefined>
  count(): Promise<number>
}

export interface SettingRepository {
  get(name: string): Promise<string | undefined>
  /** Stores the value unless the setting exists; returns the stored value either way. */
  putIfAbsent(name: string, value: string): Promise<string>
}
