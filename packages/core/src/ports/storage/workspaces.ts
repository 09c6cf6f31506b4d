import type { ApiKeyId, WorkspaceId } from "../../model/types/ids.ts"
import type { ApiKeyScope } from "../../model/types/session.ts"
import type { ApiKeyRecord, WorkspaceRecord } from "../../model/types/workspace.ts"
import type { Awaitable } from "../awaitable.ts"

export type { ApiKeyRecord, WorkspaceRecord } from "../../model/types/workspace.ts"

export interface WorkspaceRepository {
  /** Inserts unless a workspace of that name exists; returns the one stored either way. */
  insertOrGet(row: WorkspaceRecord): Awaitable<WorkspaceRecord>
  /** The workspace whose name is exactly `name` (byte for byte: no case folding, no wildcards). */
  findByName(name: string): Awaitable<WorkspaceRecord | undefined>
  findById(id: WorkspaceId): Awaitable<WorkspaceRecord | undefined>
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
  insert(row: ApiKeyRecord): Awaitable<void>
  findByKey(key: string): Awaitable<ApiKeyRecord | undefined>
  findById(id: ApiKeyId): Awaitable<ApiKeyRecord | undefined>
  /** The keys of one workspace, or of every workspace when `workspaceId` is undefined, in id order. */
  list(workspaceId: WorkspaceId | undefined): Awaitable<ReadonlyArray<ApiKeyRecord>>
  /**
   * Stamps `revoked_at` on a key not revoked yet, and returns the key as stored afterwards (a key
   * revoked before keeps its first stamp); undefined when there is no such key.
   */
  revoke(id: ApiKeyId, revokedAt: string): Awaitable<ApiKeyRecord | undefined>
  /**
   * Compare-and-set: writes the rotation only if the key is not revoked and its secret hash is
   * still `currentHash` (no other rotation or revocation came in between); the key as stored
   * afterwards, or undefined when nothing was written.
   */
  rotateSecret(id: ApiKeyId, currentHash: string, rotation: SecretRotation): Awaitable<ApiKeyRecord | undefined>
  count(): Awaitable<number>
}

export interface SettingRepository {
  get(name: string): Awaitable<string | undefined>
  /** Stores the value unless the setting exists; returns the stored value either way. */
  putIfAbsent(name: string, value: string): Awaitable<string>
  /** Erases the setting if it exists (a value moved out of the database); true if there was one. */
  remove(name: string): Awaitable<boolean>
}
