import { type Engine, isDomainError } from "@payments-engine/core"
import type { Logger } from "pino"
import type { AppMiddleware } from "../app-state.ts"
import { errorLogFields } from "../error-log-fields.ts"
import type { AppMetrics } from "../metrics/app-metrics.ts"
import { requireActor } from "./authentication.ts"
import { renderError } from "./error-rendering.ts"

/** The request header that carries the key. */
export const idempotencyKeyHeader = "Idempotency-Key"
/** The response header that marks a replayed answer. */
export const replayedHeader = "Idempotent-Replayed"

/** Options of {@link idempotency}. */
export interface IdempotencyOptions {
  readonly engine: Engine
  readonly logger: Logger
  /** Told of each replay and each refusal (409 in flight, 422 reused with another request). */
  readonly metrics?: AppMetrics
}

/** Answers that are remembered for the key: below 500, except 429 (the retry should run again). */
const remembered = (status: number) => status < 500 && status !== 429

/**
 * Stripe-style `Idempotency-Key` handling for an authenticated POST or PATCH route; the rules
 * (fingerprint, 24 h retention, 409 while running, 422 on reuse) live in the engine. Without the
 * header the route just runs. With it: a replay answers the first response again with
 * `Idempotent-Replayed: true`; otherwise the route runs with an actor that names the key, so
 * each transaction of its use cases is journaled with the key in that transaction, its error
 * answers are rendered here, and the response is stored when its status is below 500 (and not
 * 429). A 5xx or an unexpected error frees the key so a retry runs again (replaying whatever
 * committed). A crash before the response is stored leaves the journal: the retry takes the
 * dead process's claim over at once, replays what committed and answers as the first would have.
 *
 * @example
 * declare const createCompany: AppMiddleware
 * router.post("/api/v1/companies", jsonBody(), idempotency({ engine, logger }), createCompany)
 */
export const idempotency =
  (options: IdempotencyOptions): AppMiddleware =>
  async (ctx, next) => {
    const key = ctx.headers[idempotencyKeyHeader.toLowerCase()]
    if (key === undefined) return next()
    const actor = requireActor(ctx)
    const { engine, logger } = options
    const keyText = Array.isArray(key) ? key.join(", ") : key
    const decision = await engine.idempotency
      .begin(actor, keyText, { method: ctx.method, path: ctx.path, body: ctx.state.body })
      .catch((error: unknown) => {
        if (isDomainError(error)) options.metrics?.idempotency(error.kind === "conflict" ? "in_flight" : "mismatch")
        throw error
      })
    if (decision.kind === "replay") {
      options.metrics?.idempotency("replayed")
      ctx.status = decision.response.status
      ctx.body = decision.response.body ?? null
      ctx.set(replayedHeader, "true")
      return
    }
    // The use cases the route calls journal their transactions with the key (see the engine's
    // `Actor.idempotencyKey`), so a crash before the answer is kept leaves it to replay.
    ctx.state.actor = { ...actor, idempotencyKey: keyText }
    try {
      await next()
    } catch (error) {
      renderError(ctx, error, logger)
    }
    try {
      if (remembered(ctx.status)) {
        await engine.idempotency.complete(actor, keyText, { status: ctx.status, body: ctx.body ?? null })
      } else {
        await engine.idempotency.abandon(actor, keyText)
      }
    } catch (error) {
      // The answer stands; the key stays locked (its work journaled) until the engine lets a retry take it over.
      logger.error({ request_id: ctx.state.requestId, err: errorLogFields(error) }, "idempotency record not updated")
    }
  }
