import { Effect } from "effect"
import { Conflict, Invalid, messages } from "../errors.ts"
import { maskTaxId } from "../model/onboarding-person.ts"
import type { ServerSecret } from "../ports/server-secret.ts"
import type { IdempotencyRecord } from "../ports/storage/index.ts"
import {
  comparableFingerprints,
  deriveFingerprintKey,
  type FingerprintedRequest,
  type FingerprintKey,
  requestFingerprint,
} from "../rules/idempotency-fingerprint.ts"
import type { Actor } from "./actor.ts"
import type { ServicePorts } from "./ports.ts"
import { sealed, unsealed } from "./secret-sealing.ts"
import { inTransaction } from "./transaction.ts"
import { workspaceClock } from "./workspace-clock.ts"

/** How long a key is remembered. */
export const idempotencyRetentionMs = 24 * 60 * 60 * 1000
/** How long a first request may run before a retry may take its key over (it crashed). */
export const idempotencyLockMs = 60 * 1000

/** The response to remember for a key. */
export interface StoredResponse {
  readonly status: number
  readonly body: unknown
}

/** What to do with a request that carries an `Idempotency-Key`. */
export type IdempotencyDecision =
  | { readonly kind: "proceed" }
  | { readonly kind: "replay"; readonly response: StoredResponse }

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

/**
 * Fields of an answer's `data` that hold a secret shown once (a webhook endpoint's
 * `webhook_secret`; also each tax id's `identification_number` in `data.identifications`, which a
 * person create echoes): the stored answer keeps them sealed (AES-256-GCM under the server secret's
 * sealing key, bound to the workspace and key), and a replay opens them, so the record of a
 * retried request holds nothing readable, yet the retry gets the secret its lost answer carried.
 */
export const secretResponseFields: ReadonlyArray<string> = [
  "webhook_secret",
  /** A hosted-page token: a credential for 2 hours, kept as unreadable as the others. */
  "token",
]

/**
 * An identification of an answer's `data.identifications` (a person create echoes its tax id in
 * full): its `identification_number` is kept sealed like the fields above.
 */
const isTaxIdentification = (
  item: unknown,
): item is { readonly identification_type: "tax_id"; readonly identification_number: unknown } =>
  typeof item === "object" &&
  item !== null &&
  (item as { readonly identification_type?: unknown }).identification_type === "tax_id"

/** How a sealed field is stored in a remembered answer. */
const sealedMark = "$sealed"

type Rewrite = (field: string, value: unknown) => Effect.Effect<unknown>

/** The answer with each secret field of its `data` object rewritten; others as they are. */
const rewriteSecrets = (body: unknown, rewrite: Rewrite): Effect.Effect<unknown> => {
  if (typeof body !== "object" || body === null || !("data" in body)) return Effect.succeed(body)
  const data = (body as { readonly data: unknown }).data
  if (typeof data !== "object" || data === null || Array.isArray(data)) return Effect.succeed(body)
  const fields = secretResponseFields.filter((field) => Object.hasOwn(data, field))
  const identifications = (data as { readonly identifications?: unknown }).identifications
  const taxIds = Array.isArray(identifications) && identifications.some(isTaxIdentification)
  if (fields.length === 0 && !taxIds) return Effect.succeed(body)
  return Effect.gen(function* () {
    const next: Record<string, unknown> = { ...data }
    for (const field of fields) next[field] = yield* rewrite(field, next[field])
    for (const [field, value] of Object.entries(next)) if (value === undefined) delete next[field]
    if (taxIds) {
      const rewritten: Array<unknown> = []
      for (const item of identifications as ReadonlyArray<unknown>) {
        if (!isTaxIdentification(item)) {
          rewritten.push(item)
          continue
        }
        const number = yield* rewrite("identification_number", item.identification_number)
        // A tax id that cannot be opened again (the server secret rotated) is shown masked.
        rewritten.push({ ...item, identification_number: number ?? maskTaxId("") })
      }
      next.identifications = rewritten
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
 */
export const makeIdempotency = (ports: ServicePorts) => ({
  /**
   * Claims the key for this request, or says what to answer instead.
   *
   * @example
   * const decision = await engine.idempotency.begin(actor, key, { method: "POST", path, body })
   * if (decision.kind === "replay") return decision.response
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
      return yield* inTransaction(ports.storage, (tx) =>
        Effect.gen(function* () {
          const now = (yield* workspaceClock(ports, tx, actor.workspaceId)).now()
          const fresh: IdempotencyRecord = {
            workspace_id: actor.workspaceId,
            key,
            fingerprint,
            response_status: null,
            response_body: null,
            created_at: now.toISOString(),
            expires_at: new Date(now.getTime() + idempotencyRetentionMs).toISOString(),
            locked_until: new Date(now.getTime() + idempotencyLockMs).toISOString(),
          }
          const claim = yield* tx.idempotency.claim(fresh)
          if (claim.claimed) return { kind: "proceed" } as const
          const existing = claim.existing
          const takeOver = Effect.as(tx.idempotency.replace(fresh), { kind: "proceed" } as const)
          if (existing.expires_at <= fresh.created_at) return yield* takeOver
          if (existing.fingerprint !== fingerprint && comparableFingerprints(existing.fingerprint, fingerprint)) {
            return yield* Effect.fail(Invalid.rule(field, messages.idempotencyMismatch))
          }
          if (existing.response_status !== null) {
            const stored: unknown = existing.response_body === null ? null : JSON.parse(existing.response_body)
            // A secret sealed under a server secret since rotated cannot be shown again: it is left out.
            const body = yield* rewriteSecrets(stored, (_field, value) => {
              const text =
                typeof value === "object" && value !== null ? (value as Record<string, unknown>)[sealedMark] : undefined
              return typeof text === "string"
                ? unsealed(ports.serverSecret, `${actor.workspaceId}:${key}`, text)
                : Effect.succeed(value)
            })
            return { kind: "replay", response: { status: existing.response_status, body } } as const
          }
          if (existing.locked_until !== null && existing.locked_until > fresh.created_at) {
            return yield* Effect.fail(new Conflict({ field, message: messages.idempotencyInFlight }))
          }
          return yield* takeOver
        }),
      )
    }),

  /** Remembers the response of the request that claimed the key. */
  complete: (actor: Actor, key: string, response: StoredResponse): Effect.Effect<void> =>
    Effect.gen(function* () {
      const body = yield* rewriteSecrets(response.body ?? null, (_field, value) =>
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
          yield* tx.idempotency.replace({
            ...existing,
            response_status: response.status,
            response_body: JSON.stringify(body),
            locked_until: null,
          })
        }),
      )
    }),

  /** Forgets the key after a failure that a retry may fix (a 5xx), so the retry runs again. */
  abandon: (actor: Actor, key: string): Effect.Effect<void> =>
    inTransaction(ports.storage, (tx) => tx.idempotency.delete(actor.workspaceId, key)),

  /**
   * Deletes records past their retention by the engine's clock; returns how many. A record of a
   * workspace whose test clock ran ahead is already ignored once expired by that clock, and is
   * deleted when the engine's clock reaches its expiry too.
   */
  purgeExpired: (): Effect.Effect<number> =>
    inTransaction(ports.storage, (tx) => tx.idempotency.purgeExpired(ports.clock.now().toISOString())),
})

export type Idempotency = ReturnType<typeof makeIdempotency>
