import { Effect, type Schema } from "effect"
import { type Forbidden, Invalid, NotFound } from "../../errors.ts"
import type { WebhookEventName } from "../../model/events.ts"
import type { CompanyId, WebhookEndpointId } from "../../model/ids.ts"
import { webhookSecretPrefix } from "../../model/types/webhook-endpoint.ts"
import {
  previousSecretLifetimeMs,
  storedSubscriptions,
  subscriptionsFor,
  toWebhookEndpoint,
  type WebhookEndpoint,
  WebhookEndpointCreate,
  type WebhookEndpointCreateBody,
  type WebhookEndpointCreated,
  WebhookEndpointListQuery,
  WebhookEndpointUpdate,
  type WebhookEndpointUpdateBody,
  type WebhookSecretRotated,
  webhookEndpointMessages,
} from "../../model/webhook-endpoint.ts"
import type { Repositories, WebhookEndpointChange, WebhookEndpointRecord } from "../../ports/storage/index.ts"
import { closedCircuit } from "../../rules/circuit-breaker.ts"
import { type Page, type PageQuery, pageOffset, pagePolicies, parsePageRequest, toPage } from "../../rules/paging.ts"
import { randomToken } from "../../rules/random-token.ts"
import { webhookUrlProblem } from "../../rules/webhook-url.ts"
import type { Actor } from "../steps/actor.ts"
import type { AnswerSecrets } from "../steps/answer-secrets.ts"
import { decodeBody, decodeQuery } from "../steps/decode-input.ts"
import { findLiveWebhookEndpoint } from "../steps/lookups.ts"
import { sealed } from "../steps/secret-sealing.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inRead, inTransaction, type Lifted } from "../steps/transaction.ts"
import { inCompany, inWorkspace, readInCompany, writeAccess } from "../steps/use-case.ts"
import { workspaceClock } from "../steps/workspace-clock.ts"

const endpointNotFound = () => new NotFound({ field: "id", message: webhookEndpointMessages.notFound })

/**
 * What re-activating an inactive endpoint also writes: the reason the engine disabled it is
 * cleared and its circuit closed with its failures forgotten, so its deliveries go at once and
 * the days of failure that disabled it are not counted again.
 */
const reactivated = { ...closedCircuit, disabled_reason: null, disabled_at: null } as const

/** A webhook endpoint's answer shows its signing secret once (create, rotate): never stored in the clear. */
export const webhookEndpointAnswerSecrets: AnswerSecrets = { fields: ["webhook_secret"] }

/**
 * Use cases of webhook endpoints. Each by-id use case takes the company of the path, or null for
 * `/api/v1/webhook_endpoints/{id}` (DECISIONS "Paths"): the endpoint is then found in the
 * actor's workspace whatever its company. Another workspace's endpoint, a deleted one, or one of
 * another company than the path's is `not_found`.
 */
export const makeWebhookEndpoints = (ports: ServicePorts) => {
  const urlPolicy = { allowLocalHttp: ports.allowLocalWebhookUrls }

  /**
   * The URL's problem by its text (`rules/webhook-url.ts`). The check of where its host
   * resolves is the transport's (`WebhookTransport.checkUrl`: loopback, private, link-local,
   * metadata and the like refused; sandbox mode allows loopback), since core does no I/O; a
   * host with no address is refused too, outside sandbox mode.
   */
  const checkUrl = (url: string): Effect.Effect<string, Invalid> =>
    Effect.gen(function* () {
      const problem = webhookUrlProblem(url, urlPolicy)
      if (problem !== undefined) return yield* Effect.fail(Invalid.rule("url", problem))
      const resolved = yield* Effect.promise(() => ports.webhookTransport.checkUrl(url))
      if (resolved === "address_not_allowed") {
        return yield* Effect.fail(Invalid.rule("url", webhookEndpointMessages.privateAddress))
      }
      // A sandbox may name a receiver that exists only later, or only on the developer's network.
      if (resolved === "unresolvable" && !ports.allowLocalWebhookUrls) {
        return yield* Effect.fail(Invalid.rule("url", webhookEndpointMessages.unresolvable))
      }
      return url
    })

  /**
   * A create or update body decoded, its `url` checked too: every failing field at once, the
   * URL's problem beside the schema's (`url` comes first, as in the body's schema).
   */
  const decodeEndpointBody = <A extends { readonly url?: string | undefined }, I>(
    schema: Schema.Schema<A, I, never>,
    body: unknown,
  ): Effect.Effect<A, Invalid> =>
    decodeBody(schema, body).pipe(
      Effect.catchAll((refusal) => {
        const url = typeof body === "object" && body !== null ? (body as { readonly url?: unknown }).url : undefined
        const problem =
          typeof url === "string" && !refusal.errors.some((e) => e.field === "url")
            ? webhookUrlProblem(url, urlPolicy)
            : undefined
        if (problem === undefined) return Effect.fail(refusal)
        return Effect.fail(
          new Invalid({ kind: refusal.kind, errors: [{ field: "url", message: problem }, ...refusal.errors] }),
        )
      }),
      Effect.tap((input) => (input.url === undefined ? Effect.void : checkUrl(input.url))),
    )

  const findEndpoint = findLiveWebhookEndpoint

  const nowOf = (tx: Lifted<Repositories>, actor: Actor) =>
    workspaceClock(ports, tx, actor.workspaceId).pipe(Effect.map((clock) => clock.now().toISOString()))

  /** A write that found the endpoint a moment ago and then did not: deleted in between. */
  const written = (row: WebhookEndpointRecord | undefined) =>
    row === undefined ? Effect.fail(endpointNotFound()) : Effect.succeed(toWebhookEndpoint(row))

  /**
   * After the commit that deactivated or deleted endpoint `id`: its lanes in flight, in this
   * process and the others sharing the storage, are told, so they start no further send.
   */
  const tellLanes = (id: WebhookEndpointId) =>
    ports.endpointChanges === undefined ? Effect.void : Effect.promise(() => ports.endpointChanges!.announce(id))

  /** Tells the endpoint's lanes once the write that left `endpoint` inactive has committed. */
  const tellLanesIfInactive = (endpoint: WebhookEndpoint) => (endpoint.active ? Effect.void : tellLanes(endpoint.id))

  return {
    /**
     * Creates an endpoint subscribed to `event_names` (names of the catalogue), active unless
     * `active: false`, and answers it with its signing secret: the only time the secret is shown.
     * Storage keeps it sealed with a key derived from the server secret.
     *
     * @example
     * const { webhook_secret } = await engine.webhookEndpoints.create(actor, cid, {
     *   url: "https://example.com/hooks", event_names: ["PaymentEvents::CompletedEvent"],
     * })
     */
    create: (
      actor: Actor,
      companyId: CompanyId,
      body: WebhookEndpointCreateBody,
    ): Effect.Effect<WebhookEndpointCreated, Invalid | Forbidden | NotFound> =>
      Effect.gen(function* () {
        const { url, ...input } = yield* decodeEndpointBody(WebhookEndpointCreate, body)
        if (input.company_id !== undefined && input.company_id !== companyId) {
          return yield* Effect.fail(Invalid.rule("company_id", webhookEndpointMessages.companyMismatch))
        }
        const id = ports.ids.next("we")
        const secret = `${webhookSecretPrefix}${randomToken(32)}`
        const sealedSecret = yield* sealed(ports.serverSecret, id, secret)
        const endpoint = yield* inCompany(ports, actor, companyId, ({ tx, company }) =>
          Effect.gen(function* () {
            const now = yield* nowOf(tx, actor)
            const names = input.event_names as ReadonlyArray<WebhookEventName>
            const row: WebhookEndpointRecord = {
              id,
              uuid: crypto.randomUUID(),
              workspace_id: actor.workspaceId,
              company_id: company.id,
              url,
              active: input.active ?? true,
              subscriptions: JSON.stringify(subscriptionsFor(names, [], () => ports.ids.next("wes"))),
              secret: sealedSecret,
              previous_secret: null,
              previous_secret_expires_at: null,
              ...closedCircuit,
              disabled_reason: null,
              disabled_at: null,
              created_at: now,
              updated_at: now,
              deleted_at: null,
            }
            yield* tx.webhookEndpoints.insert(row)
            return toWebhookEndpoint(row)
          }),
        )
        return { ...endpoint, webhook_secret: secret }
      }).pipe(writeAccess(actor)),

    /** An endpoint with the events it subscribes to. */
    get: (actor: Actor, companyId: CompanyId | null, id: WebhookEndpointId): Effect.Effect<WebhookEndpoint, NotFound> =>
      inRead(ports.storage, (tx) => findEndpoint(tx, actor, companyId, id).pipe(Effect.map(toWebhookEndpoint))),

    /** Endpoints of the company, oldest first, 25 a page, filtered by `active` (`true` or `false`). */
    list: (
      actor: Actor,
      companyId: CompanyId,
      query: PageQuery & { readonly active?: unknown } = {},
    ): Effect.Effect<Page<WebhookEndpoint>, Invalid | NotFound> =>
      Effect.gen(function* () {
        const request = yield* parsePageRequest(query, pagePolicies.webhookEndpoints)
        const { active } = yield* decodeQuery(WebhookEndpointListQuery, query)
        return yield* readInCompany(ports, actor, companyId, ({ tx, company }) =>
          Effect.gen(function* () {
            const slice = yield* tx.webhookEndpoints.list(
              company.id,
              active === undefined ? {} : { active: active === "true" },
              { offset: pageOffset(request), limit: request.perPage },
            )
            return toPage(slice.rows.map(toWebhookEndpoint), slice.total, request)
          }),
        )
      }),

    /**
     * Changes any of `url`, `active` and `event_names` (which replaces the subscriptions; events
     * kept keep their subscription ids). The secret stays. `active: true` on an inactive endpoint
     * re-enables it: `disabled_reason` and `disabled_at` are cleared, and its circuit closed
     * (`consecutive_failures` 0, `circuit_open_until` and `failing_since` null).
     */
    update: (
      actor: Actor,
      companyId: CompanyId | null,
      id: WebhookEndpointId,
      body: WebhookEndpointUpdateBody,
    ): Effect.Effect<WebhookEndpoint, Invalid | Forbidden | NotFound> =>
      Effect.gen(function* () {
        const { url, ...input } = yield* decodeEndpointBody(WebhookEndpointUpdate, body)
        return yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const current = yield* findEndpoint(tx, actor, companyId, id)
            const change: WebhookEndpointChange = {
              updated_at: yield* nowOf(tx, actor),
              ...(url === undefined ? {} : { url }),
              ...(input.active === undefined ? {} : { active: input.active }),
              ...(input.active === true && !current.active ? reactivated : {}),
              ...(input.event_names === undefined
                ? {}
                : {
                    subscriptions: JSON.stringify(
                      subscriptionsFor(
                        input.event_names as ReadonlyArray<WebhookEventName>,
                        storedSubscriptions(current),
                        () => ports.ids.next("wes"),
                      ),
                    ),
                  }),
            }
            return yield* written(yield* tx.webhookEndpoints.update(actor.workspaceId, current.id, change))
          }),
        ).pipe(Effect.tap(tellLanesIfInactive))
      }).pipe(writeAccess(actor)),

    /** Flips `active`; switched back on, the endpoint starts afresh as with `update`'s `active: true`. */
    toggle: (
      actor: Actor,
      companyId: CompanyId | null,
      id: WebhookEndpointId,
    ): Effect.Effect<WebhookEndpoint, Forbidden | NotFound> =>
      inTransaction(ports.storage, (tx) =>
        Effect.gen(function* () {
          const current = yield* findEndpoint(tx, actor, companyId, id)
          const now = yield* nowOf(tx, actor)
          const toggled = yield* tx.webhookEndpoints.toggle(actor.workspaceId, current.id, now)
          // Switched back on: it starts afresh, as a PATCH of `active: true` starts it.
          if (toggled?.active !== true) return yield* written(toggled)
          return yield* written(
            yield* tx.webhookEndpoints.update(actor.workspaceId, current.id, { ...reactivated, updated_at: now }),
          )
        }),
      ).pipe(Effect.tap(tellLanesIfInactive), writeAccess(actor)),

    /** Deletes the endpoint: nothing is sent to it any more, and it is not found from then on. */
    /**
     * Gives the endpoint a new signing secret, answered this once; the old one keeps signing
     * deliveries beside it for 24 hours (`webhook-signature` carries both, `Service-Signature`
     * the new one), so receivers can switch without missing a delivery.
     */
    rotateSecret: (
      actor: Actor,
      companyId: CompanyId | null,
      id: WebhookEndpointId,
    ): Effect.Effect<WebhookSecretRotated, Forbidden | NotFound> =>
      Effect.gen(function* () {
        const secret = `${webhookSecretPrefix}${randomToken(32)}`
        const sealedSecret = yield* sealed(ports.serverSecret, id, secret)
        return yield* inWorkspace(ports, actor, ({ tx, readClock }) =>
          Effect.gen(function* () {
            const current = yield* findEndpoint(tx, actor, companyId, id)
            const clock = yield* readClock
            const now = clock.now()
            const expires = new Date(now.getTime() + previousSecretLifetimeMs).toISOString()
            const rotated = yield* tx.webhookEndpoints.replaceSecret(actor.workspaceId, current.id, current.secret, {
              secret: sealedSecret,
              previous_secret: current.secret,
              previous_secret_expires_at: expires,
              updated_at: now.toISOString(),
            })
            if (rotated === undefined) return yield* Effect.fail(endpointNotFound())
            return { id: rotated.id, webhook_secret: secret, previous_secret_expires_at: expires }
          }),
        )
      }).pipe(writeAccess(actor)),

    delete: (
      actor: Actor,
      companyId: CompanyId | null,
      id: WebhookEndpointId,
    ): Effect.Effect<void, Forbidden | NotFound> =>
      Effect.gen(function* () {
        yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const current = yield* findEndpoint(tx, actor, companyId, id)
            const deleted = yield* tx.webhookEndpoints.delete(actor.workspaceId, current.id, yield* nowOf(tx, actor))
            if (!deleted) return yield* Effect.fail(endpointNotFound())
            return current.id
          }),
        ).pipe(Effect.flatMap(tellLanes))
      }).pipe(writeAccess(actor)),
  }
}

export type WebhookEndpoints = ReturnType<typeof makeWebhookEndpoints>
