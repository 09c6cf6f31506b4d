import { Effect } from "effect"
import { Invalid, messages, Unauthenticated } from "../../errors.ts"
import { SessionCreate, type SessionCreateBody } from "../../model/session.ts"
import type { ApiKeyRequest, AuthenticatedKey, IssuedApiKey } from "../../model/types/api-keys.ts"
import type { ApiKeyRecord, Repositories, WorkspaceRecord } from "../../ports/storage/index.ts"
import { randomToken } from "../../rules/random-token.ts"
import { decodeBody } from "../steps/decode-input.ts"
import { type EnginePorts, nowIso } from "../steps/service-ports.ts"
import { inRead, inTransaction, type Lifted } from "../steps/transaction.ts"
import { workspaceName } from "../steps/workspace-name.ts"

const workspaceOf = (tx: Lifted<Repositories>, ports: EnginePorts, name: string) =>
  tx.workspaces.insertOrGet({ id: ports.ids.next("ws"), name, created_at: nowIso(ports) })

const invalidCredentials = () => new Unauthenticated({ field: "api_key", message: messages.invalidApiKey })

/** Workspaces, API keys and the check of a key and secret. */
export const makeAccess = (ports: EnginePorts) => ({
  /**
   * Issues an API key in a workspace, creating the workspace when it does not exist yet.
   *
   * @example
   * const { api_key, api_secret } = await engine.access.createApiKey({ workspace: "acme", scope: "read" })
   */
  createApiKey: (request: ApiKeyRequest): Effect.Effect<IssuedApiKey, Invalid> =>
    Effect.gen(function* () {
      const name = yield* workspaceName(request.workspace)
      const scope = request.scope ?? "write"
      const key = request.key ?? `pk_${randomToken(24)}`
      const secret = request.secret ?? `sk_${randomToken(40)}`
      const secretHash = yield* Effect.promise(() => ports.hasher.hash(secret))
      const workspace = yield* inTransaction(ports.storage, (tx) =>
        Effect.gen(function* () {
          if (yield* tx.apiKeys.findByKey(key)) {
            return yield* Effect.fail(Invalid.rule("api_key", messages.alreadyTaken))
          }
          const workspace = yield* workspaceOf(tx, ports, name)
          const row: ApiKeyRecord = {
            id: ports.ids.next("key"),
            workspace_id: workspace.id,
            key,
            secret_hash: secretHash,
            scope,
            created_at: nowIso(ports),
            revoked_at: null,
            rotated_at: null,
            previous_secret_hash: null,
            previous_secret_expires_at: null,
          }
          yield* tx.apiKeys.insert(row)
          return workspace
        }),
      )
      return { workspace: workspace.name, workspace_id: workspace.id, api_key: key, api_secret: secret, scope }
    }),

  /**
   * The workspace of that name, created when missing: the tenant an embedder acts in.
   *
   * @example
   * const { id } = await engine.access.ensureWorkspace("acme")
   * const actor: Actor = { workspaceId: id, scope: "write" }
   */
  ensureWorkspace: (name: string): Effect.Effect<WorkspaceRecord, Invalid> =>
    Effect.gen(function* () {
      const trimmed = yield* workspaceName(name)
      return yield* inTransaction(ports.storage, (tx) => workspaceOf(tx, ports, trimmed))
    }),

  /** True once any API key exists: an empty database gets a bootstrap key at start. */
  hasApiKeys: (): Effect.Effect<boolean> =>
    inRead(ports.storage, (tx) => tx.apiKeys.count()).pipe(Effect.map((n) => n > 0)),

  /** Whether this exact key exists already (for the bootstrap key from the environment). */
  apiKeyExists: (key: string): Effect.Effect<boolean> =>
    inRead(ports.storage, (tx) => tx.apiKeys.findByKey(key)).pipe(Effect.map(Boolean)),

  /**
   * Checks the body of `POST /api/v1/sessions` (`api_key`, `api_secret`): the key's actor, `missing`
   * when a field is missing, or `unauthenticated` on `api_key`. A revoked key is refused like an
   * unknown one. A rotated key's previous secret works until its grace period ends (`endsBy`). An
   * unknown or revoked key costs as much as a wrong secret, so timing does not tell which keys exist.
   */
  authenticate: (body: SessionCreateBody): Effect.Effect<AuthenticatedKey, Invalid | Unauthenticated> =>
    Effect.gen(function* () {
      const { api_key: key, api_secret: secret } = yield* decodeBody(SessionCreate, body)
      const row =
        key.length > 0 && key.length <= 200
          ? yield* inRead(ports.storage, (tx) => tx.apiKeys.findByKey(key))
          : undefined
      if (row === undefined || row.revoked_at !== null) {
        yield* Effect.promise(() => ports.hasher.hash(secret))
        return yield* Effect.fail(invalidCredentials())
      }
      const actor = { workspaceId: row.workspace_id, scope: row.scope, keyId: row.id }
      if (yield* Effect.promise(() => ports.hasher.verify(secret, row.secret_hash))) return { ...actor, endsBy: null }
      const { previous_secret_hash: previous, previous_secret_expires_at: endsBy } = row
      const inGrace = previous !== null && endsBy !== null && nowIso(ports) < endsBy
      if (inGrace && (yield* Effect.promise(() => ports.hasher.verify(secret, previous)))) return { ...actor, endsBy }
      return yield* Effect.fail(invalidCredentials())
    }),

  /** A setting kept in storage, written once: the first writer's value wins across processes. */
  settingOrInit: (name: string, init: () => string): Effect.Effect<string> =>
    inTransaction(ports.storage, (tx) =>
      Effect.gen(function* () {
        const existing = yield* tx.settings.get(name)
        return existing ?? (yield* tx.settings.putIfAbsent(name, init()))
      }),
    ),
})

export type Access = ReturnType<typeof makeAccess>
