import type { ApiKeyId, WorkspaceId } from "../../model/ids.ts"
import type { ApiKeyScope } from "../../model/session.ts"
import type { ApiKeyRecord, WorkspaceRecord } from "../../model/workspace.ts"

export type { ApiKeyRecord, WorkspaceRecord } from "../../model/workspace.ts"

export interface WorkspaceRepository {
  /** Inserts unless a workspace of that name exists; returns the one stored either way. */
  insertOrGet(row: WorkspaceRecord): Promise<WorkspaceRecord>
  /** The workspace whose name is exactly `name` (byte for byte: no case folding, no wildcards). */
  findByName(name: string): Promise<WorkspaceRecord | undefined>
  findById(id: WorkspaceId): Promise<WorkspaceRecord | undefined>
}

export type { ApiKeyScope }

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
  findById(id: ApiKeyId): Promise<ApiKeyRecord | undefined>
  /** The keys of one workspace, or of every workspace when `workspaceId` is undefined, in id order. */
  list(workspaceId: WorkspaceId | undefined): Promise<ReadonlyArray<ApiKeyRecord>>
  /**
   * Stamps `revoked_at` on a key not revoked yet, and returns the key as stored afterwards (a key
   * revoked before keeps its first stamp); undefined when there is no such key.
   */
  revoke(id: ApiKeyId, revokedAt: string): Promise<ApiKeyRecord | undefined>
  /**
   * Compare-and-set: writes the rotation only if the key is not revoked and its secret hash is
   * still `currentHash` (no other rotation or revocation came in between); the key as stored
   * afterwards, or undefined when nothing was written.
   */
  rotateSecret(id: ApiKeyId, currentHash: string, rotation: SecretRotation): Promise<ApiKeyRecord | undefined>
  count(): Promise<number>
}

export interface SettingRepository {
  get(name: string): Promise<string | undefined>
  /** Stores the value unless the setting exists; returns the stored value either way. */
  putIfAbsent(name: string, value: string): Promise<string>
  /** Erases the setting if it exists (a value moved out of the database); true if there was one. */
  remove(name: string): Promise<boolean>
}
