import { Effect } from "effect"
import { Conflict, Invalid, messages } from "../../errors.ts"
import {
  type IdempotencyDecision,
  idempotencyLockMs,
  idempotencyRetentionMs,
  type StoredResponse,
} from "../../model/types/idempotency.ts"
import type { ServerSecret } from "../../ports/server-secret.ts"
import type { IdempotencyRecord } from "../../ports/storage/index.ts"
import {
  comparableFingerprints,
  deriveFingerprintKey,
  type FingerprintedRequest,
  type FingerprintKey,
  requestFingerprint,
} from "../../rules/idempotency-fingerprint.ts"
import type { Actor } from "../steps/actor.ts"
import { type AnswerSecrets, allAnswerSecrets } from "../steps/answer-secrets.ts"
import type { KeyedRequests } from "../steps/keyed-requests.ts"
import { sealed, unsealed } from "../steps/secret-sealing.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inTransaction, journalSteps } from "../steps/transaction.ts"
import { inWorkspace } from "../steps/use-case.ts"

const field = "Idempotency-Key"

const derivedKeys = new WeakMap<ServerSecret, Promise<FingerprintKey>>()

/** The fingerprint key of a server secret, derived once; asked again after a failure (its storage was down). */
const fingerprintKeyOf = (secret: ServerSecret): Promise<FingerprintKey> => {
  let derived = derivedKeys.get(secret)
  if (derived === undefined) {
    derived = secret
      .read()
      .then(deriveFingerprintKey)
      .catch((error: unknown) => {
        derivedKeys.delete(secret)
        throw error
      })
    derivedKeys.set(secret, derived)
  }
  return derived
}

/** How a sealed field is stored in a remembered answer. */
const sealedMark = "$sealed"

type Rewrite = (field: string, value: unknown) => Effect.Effect<unknown>

/**
 * The answer with each secret its resources declared (see {@link AnswerSecrets}) rewritten;
 * the rest as it is. A listed secret that comes out undefined shows its `unopenable` stand-in.
 */
const rewriteSecrets = (secrets: Required<AnswerSecrets>, body: unknown, rewrite: Rewrite): Effect.Effect<unknown> => {
  if (typeof body !== "object" || body === null || !("data" in body)) return Effect.succeed(body)
  const data = (body as { readonly data: unknown }).data
  if (typeof data !== "object" || data === null || Array.isArray(data)) return Effect.succeed(body)
  const fields = secrets.fields.filter((field) => Object.hasOwn(data, field))
  const listed = secrets.listed.filter((secret) => {
    const list = (data as Record<string, unknown>)[secret.list]
    return Array.isArray(list) && list.some((item) => typeof item === "object" && item !== null && secret.holds(item))
  })
  if (fields.length === 0 && listed.length === 0) return Effect.succeed(body)
  return Effect.gen(function* () {
    const next: Record<string, unknown> = { ...data }
    for (const field of fields) next[field] = yield* rewrite(field, next[field])
    for (const [field, value] of Object.entries(next)) if (value === undefined) delete next[field]
    for (const secret of listed) {
      const rewritten: Array<unknown> = []
      for (const item of next[secret.list] as ReadonlyArray<unknown>) {
        if (typeof item !== "object" || item === null || !secret.holds(item)) {
          rewritten.push(item)
          continue
        }
        const value = yield* rewrite(secret.field, (item as Record<string, unknown>)[secret.field])
        rewritten.push({ ...item, [secret.field]: value ?? secret.unopenable })
      }
      next[secret.list] = rewritten
    }
    return { ...body, data: next }
  })
}

const validKey = (key: string) =>
  key.length >= 1 && key.length <= 255
    ? Effect.void
    : Effect.fail(Invalid.missing(field, "must be between 1 and 255 characters"))

/**
 * Idempotency keys of POST and PATCH requests, Stripe's way: the first response is replayed for
 * the same request, a different request with the key is refused, and so is one that arrives
 * while the first still runs. Records live in storage, so this holds across processes.
 * Fingerprints are keyed by the server secret; a stored one that cannot be compared (erased by a
 * migration, or made under a secret since rotated) replays rather than refuse a retry.
 *
 * Between `begin` and `complete`, use cases called with an actor that names the key
 * (`{ ...actor, idempotencyKey: key }`) journal each transaction's result in the key's record, in
 * that transaction: a retry after a crash replays what committed and runs only the rest, so the
 * work is done once. A claim whose process is known to have stopped (the storage's `processes`)
 * is taken over at once; one whose process runs, after 60 s.
 */
export const makeIdempotency = (
  ports: ServicePorts,
  keyedRequests: KeyedRequests,
  answerSecrets: ReadonlyArray<AnswerSecrets>,
) => {
  const secrets = allAnswerSecrets(answerSecrets)
  // Without the storage's liveness, this engine's claims carry an id of its own.
  const engineId = `engine:${crypto.randomUUID()}`
  const processes = ports.storage.processes
  const self = (): Effect.Effect<string> =>
    processes === undefined ? Effect.succeed(engineId) : Effect.promise(() => processes.self())
  /**
   * Whether a claim's process may still be running it: unknowable without the storage's liveness,
   * or for a claim made before claims named their process (it keeps its lock).
   */
  const mayRun = (owner: string | null): Effect.Effect<boolean> =>
    owner === null || processes === undefined ? Effect.succeed(true) : Effect.promise(() => processes.isRunning(owner))
  return {
    /**
     * Claims the key for this request, or says what to answer instead.
     *
     * @example
     * declare const key: string, path: string, body: CompanyCreateBody
     * const decision = await engine.idempotency.begin(actor, key, { method: "POST", path, body })
     * if (decision.kind === "replay") return decision.response
     * const answer = await engine.companies.create({ ...actor, idempotencyKey: key }, body)
     */
    begin: (
      actor: Actor,
      key: string,
      request: FingerprintedRequest,
    ): Effect.Effect<IdempotencyDecision, Invalid | Conflict> =>
      Effect.gen(function* () {
        yield* validKey(key)
        const fingerprint = yield* Effect.promise(async () =>
          requestFingerprint(await fingerprintKeyOf(ports.serverSecret), request),
        )
        const owner = yield* self()
        const decision = yield* inWorkspace(ports, actor, ({ tx, readClock }) =>
          Effect.gen(function* () {
            const now = (yield* readClock).now()
            const lockedUntil = new Date(now.getTime() + idempotencyLockMs).toISOString()
            const fresh: IdempotencyRecord = {
              workspace_id: actor.workspaceId,
              key,
              fingerprint,
              response_status: null,
              response_body: null,
              created_at: now.toISOString(),
              expires_at: new Date(now.getTime() + idempotencyRetentionMs).toISOString(),
              locked_until: lockedUntil,
              owner,
              journal: null,
            }
            const claim = yield* tx.idempotency.claim(fresh)
            if (claim.claimed) return { kind: "proceed" } as const
            const existing = claim.existing
            const inFlight = Effect.fail(new Conflict({ field, message: messages.idempotencyInFlight }))
            const takeOver = (row: IdempotencyRecord) =>
              Effect.flatMap(tx.idempotency.replaceIfOwner(row, existing.owner), (taken) =>
                taken ? Effect.succeed({ kind: "proceed" } as const) : inFlight,
              )
            if (existing.expires_at <= fresh.created_at) return yield* takeOver(fresh)
            if (existing.fingerprint !== fingerprint && comparableFingerprints(existing.fingerprint, fingerprint)) {
              return yield* Effect.fail(Invalid.rule(field, messages.idempotencyMismatch))
            }
            if (existing.response_status !== null) {
              const stored: unknown = existing.response_body === null ? null : JSON.parse(existing.response_body)
              // A secret sealed under a server secret since rotated cannot be shown again: it is left out.
              const body = yield* rewriteSecrets(secrets, stored, (_field, value) => {
                const text =
                  typeof value === "object" && value !== null
                    ? (value as Record<string, unknown>)[sealedMark]
                    : undefined
                return typeof text === "string"
                  ? unsealed(ports.serverSecret, `${actor.workspaceId}:${key}`, text)
                  : Effect.succeed(value)
              })
              return { kind: "replay", response: { status: existing.response_status, body } } as const
            }
            const lockHeld = existing.locked_until !== null && existing.locked_until > fresh.created_at
            if (lockHeld && (yield* mayRun(existing.owner))) return yield* inFlight
            // What the first request committed stays journaled: this one replays it and goes on.
            return yield* takeOver({ ...existing, locked_until: lockedUntil, owner })
          }),
        )
        if (decision.kind === "proceed") {
          const boundTo = `${actor.workspaceId}:${key}`
          keyedRequests.open(actor.workspaceId, key, owner, {
            seal: (text) => sealed(ports.serverSecret, boundTo, text, "idempotency-journal"),
            open: (text) => unsealed(ports.serverSecret, boundTo, text, "idempotency-journal"),
          })
        }
        return decision
      }),

    /** Remembers the response of the request that claimed the key; its journal is no longer needed. */
    complete: (actor: Actor, key: string, response: StoredResponse): Effect.Effect<void> =>
      Effect.gen(function* () {
        const owner = keyedRequests.of(actor.workspaceId, key)?.owner ?? (yield* self())
        const body = yield* rewriteSecrets(secrets, response.body ?? null, (_field, value) =>
          typeof value === "string"
            ? sealed(ports.serverSecret, `${actor.workspaceId}:${key}`, value).pipe(
                Effect.map((text) => ({ [sealedMark]: text })),
              )
            : Effect.succeed(value),
        )
        return yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const existing = yield* tx.idempotency.find(actor.workspaceId, key)
            if (existing === undefined)
              return yield* Effect.die(new Error(`idempotency key ${key} completed without begin`))
            const kept = yield* tx.idempotency.replaceIfOwner(
              {
                ...existing,
                response_status: response.status,
                response_body: JSON.stringify(body),
                locked_until: null,
                owner: null,
                journal: null,
              },
              owner,
            )
            if (!kept) return yield* Effect.die(new Error(`idempotency key ${key} was taken over before it completed`))
          }),
        )
      }).pipe(Effect.ensuring(Effect.sync(() => keyedRequests.close(actor.workspaceId, key)))),

    /**
     * Lets a retry run again after a failure that it may fix (`provider_failure`, `rate_limited`, a
     * defect): the key is forgotten when nothing of the request committed, or else released, its
     * journal kept, for the retry to take over at once and replay what committed.
     */
    abandon: (actor: Actor, key: string): Effect.Effect<void> =>
      Effect.gen(function* () {
        const owner = keyedRequests.of(actor.workspaceId, key)?.owner ?? (yield* self())
        yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const existing = yield* tx.idempotency.find(actor.workspaceId, key)
            if (existing === undefined || existing.owner !== owner) return
            if (journalSteps(existing.journal).length === 0) return yield* tx.idempotency.delete(actor.workspaceId, key)
            yield* tx.idempotency.replaceIfOwner({ ...existing, locked_until: null, owner: null }, owner)
          }),
        )
      }).pipe(Effect.ensuring(Effect.sync(() => keyedRequests.close(actor.workspaceId, key)))),
  }
}

export type Idempotency = ReturnType<typeof makeIdempotency>

/** The background job of idempotency records: the hourly purge of expired ones. */
export const makeIdempotencyJobs = (ports: Pick<ServicePorts, "storage" | "clock">) => ({
  /**
   * Deletes records past their retention by the engine's clock; returns how many. A record of a
   * workspace whose test clock ran ahead is already ignored once expired by that clock, and is
   * deleted when the engine's clock reaches its expiry too.
   */
  purgeExpired: (): Effect.Effect<number> =>
    inTransaction(ports.storage, (tx) => tx.idempotency.purgeExpired(ports.clock.now().toISOString())),
})
