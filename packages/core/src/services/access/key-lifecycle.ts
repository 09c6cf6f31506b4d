import { Effect } from "effect"
import { Conflict, Invalid, messages, NotFound } from "../../errors.ts"
import {
  type ApiKeyListing,
  defaultRotationGraceSeconds,
  longestRotationGraceSeconds,
  type RotatedApiKey,
  type TokenClaims,
} from "../../model/types/api-keys.ts"
import type { ApiKeyRecord, Repositories } from "../../ports/storage/index.ts"
import { randomToken } from "../../rules/random-token.ts"
import type { Actor } from "../steps/actor.ts"
import { type EnginePorts, nowIso } from "../steps/service-ports.ts"
import { inRead, inTransaction, type Lifted } from "../steps/transaction.ts"
import { workspaceName } from "../steps/workspace-name.ts"

const listingOf = (row: ApiKeyRecord, workspace: string): ApiKeyListing => ({
  api_key: row.key,
  workspace,
  workspace_id: row.workspace_id,
  scope: row.scope,
  created_at: row.created_at,
  revoked_at: row.revoked_at,
  rotated_at: row.rotated_at,
  previous_secret_expires_at: row.previous_secret_expires_at,
})

const keyNotFound = () => new NotFound({ field: "api_key", message: messages.apiKeyNotFound })

/** The key of that public `api_key`, with its workspace's name. */
const findKey = (tx: Lifted<Repositories>, key: string) =>
  Effect.gen(function* () {
    const row = key.length > 0 && key.length <= 200 ? yield* tx.apiKeys.findByKey(key) : undefined
    if (row === undefined) return yield* Effect.fail(keyNotFound())
    const workspace = yield* tx.workspaces.findById(row.workspace_id)
    return { row, workspace: workspace?.name ?? row.workspace_id }
  })

const graceSecondsOf = (grace: number) =>
  Number.isSafeInteger(grace) && grace >= 0 && grace <= longestRotationGraceSeconds
    ? Effect.succeed(grace)
    : Effect.fail(Invalid.rule("grace", `must be from 0 to ${longestRotationGraceSeconds} seconds (30 days)`))

/** Listing, revoking and rotating API keys, and the check of a bearer token's key. */
export const makeKeyLifecycle = (ports: EnginePorts) => ({
  /**
   * The keys of one workspace (by name), or of every workspace, in creation order.
   *
   * @example
   * const keys = await engine.access.listApiKeys("acme")
   */
  listApiKeys: (workspace?: string): Effect.Effect<ReadonlyArray<ApiKeyListing>, Invalid | NotFound> =>
    Effect.gen(function* () {
      const name = workspace === undefined ? undefined : yield* workspaceName(workspace)
      return yield* inRead(ports.storage, (tx) =>
        Effect.gen(function* () {
          const only = name === undefined ? undefined : yield* tx.workspaces.findByName(name)
          if (name !== undefined && only === undefined) {
            return yield* Effect.fail(new NotFound({ field: "workspace", message: "Workspace not found" }))
          }
          const rows = yield* tx.apiKeys.list(only?.id)
          const names = new Map<string, string>(only === undefined ? [] : [[only.id, only.name]])
          for (const row of rows) {
            if (names.has(row.workspace_id)) continue
            const found = yield* tx.workspaces.findById(row.workspace_id)
            names.set(row.workspace_id, found?.name ?? row.workspace_id)
          }
          return rows.map((row) => listingOf(row, names.get(row.workspace_id) ?? row.workspace_id))
        }),
      )
    }),

  /**
   * Revokes a key for good: it opens no session from now on, and its bearer tokens stop working
   * as soon as each process's cache of key states expires. Revoking a revoked key changes nothing.
   *
   * @example
   * const { revoked_at } = await engine.access.revokeApiKey("pk_...")
   */
  revokeApiKey: (key: string): Effect.Effect<ApiKeyListing, NotFound> =>
    inTransaction(ports.storage, (tx) =>
      Effect.gen(function* () {
        const { row, workspace } = yield* findKey(tx, key)
        const revoked = yield* tx.apiKeys.revoke(row.id, nowIso(ports))
        return listingOf(revoked ?? row, workspace)
      }),
    ),

  /**
   * Gives a key a new secret, shown this once. The previous secret keeps opening sessions for
   * `graceSeconds` ({@link defaultRotationGraceSeconds} by default; 0 ends it at once), and no
   * session it opens outlives that. A second rotation ends the first one's old secret at once.
   *
   * @example
   * const { api_secret } = await engine.access.rotateApiKey("pk_...", 3600)
   */
  rotateApiKey: (
    key: string,
    graceSeconds: number = defaultRotationGraceSeconds,
  ): Effect.Effect<RotatedApiKey, Invalid | NotFound | Conflict> =>
    Effect.gen(function* () {
      const grace = yield* graceSecondsOf(graceSeconds)
      const secret = `sk_${randomToken(40)}`
      const secretHash = yield* Effect.promise(() => ports.hasher.hash(secret))
      return yield* inTransaction(ports.storage, (tx) =>
        Effect.gen(function* () {
          const { row, workspace } = yield* findKey(tx, key)
          if (row.revoked_at !== null) {
            return yield* Effect.fail(new Conflict({ field: "api_key", message: messages.apiKeyRevoked }))
          }
          const now = ports.clock.now()
          const rotated = yield* tx.apiKeys.rotateSecret(row.id, row.secret_hash, {
            secret_hash: secretHash,
            previous_secret_hash: row.secret_hash,
            previous_secret_expires_at: new Date(now.getTime() + grace * 1000).toISOString(),
            rotated_at: now.toISOString(),
          })
          if (rotated === undefined) {
            return yield* Effect.fail(
              new Conflict({ field: "api_key", message: "API key was rotated or revoked meanwhile; try again" }),
            )
          }
          return { ...listingOf(rotated, workspace), api_secret: secret }
        }),
      )
    }),

  /**
   * The actor a bearer token stands for, if its key still exists, is not revoked, and belongs to
   * the workspace and scope the token names; undefined otherwise. The key belonging to the
   * workspace also proves the workspace exists.
   *
   * @example
   * declare const keyId: ApiKeyId
   * const actor = await engine.access.tokenActor({ workspaceId, keyId, scope: "write" })
   */
  tokenActor: (claims: TokenClaims): Effect.Effect<Actor | undefined> =>
    inRead(ports.storage, (tx) => tx.apiKeys.findById(claims.keyId)).pipe(
      Effect.map((row): Actor | undefined =>
        row === undefined ||
        row.revoked_at !== null ||
        row.workspace_id !== claims.workspaceId ||
        row.scope !== claims.scope
          ? undefined
          : { workspaceId: row.workspace_id, scope: row.scope, keyId: row.id },
      ),
    ),
})
