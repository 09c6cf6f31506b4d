import { Effect } from "effect"
import { Forbidden, Invalid, messages, NotFound } from "../../errors.ts"
import type { FeatureIdentifier } from "../../model/feature.ts"
import {
  type EntityHostedPageTokenBody,
  type FeatureTokenPurpose,
  FeatureTokenRequest,
  type FundingTokenBody,
  FundingTokenRequest,
  fundingTokenPurposes,
  type HostedPagePurpose,
  type HostedPageToken,
  hostedPagePurposes,
  hostedPageTokenMessages as msg,
  RecipientTokenRequest,
  recipientTokenPurposes,
  requiredFeatureStatus,
} from "../../model/hosted-page-token.ts"
import type { ApplicationId, CompanyId, EntityId, RecipientId } from "../../model/ids.ts"
import type { HostedPageVerification, HostedPageVerifyOptions } from "../../model/types/hosted-page-token.ts"
import type { ServerSecret } from "../../ports/server-secret.ts"
import type { Repositories } from "../../ports/storage/index.ts"
import { checkHostedPageCsrfToken, deriveHostedPageCsrfKey, hostedPageCsrfToken } from "../../rules/hosted-page-csrf.ts"
import {
  deriveHostedPageKey,
  type HostedPageClaims,
  type HostedPageScope,
  signHostedPageToken,
  verifyHostedPageToken,
} from "../../rules/hosted-page-jwt.ts"
import type { Actor } from "../steps/actor.ts"
import type { AnswerSecrets } from "../steps/answer-secrets.ts"
import { decodeBody } from "../steps/decode-input.ts"
import { checkedReturnUrl } from "../steps/return-url.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inRead, inTransaction, type Lifted } from "../steps/transaction.ts"
import { inCompany, writeAccess } from "../steps/use-case.ts"
import { peekWorkspaceClock, workspaceClock } from "../steps/workspace-clock.ts"

const keys = new WeakMap<ServerSecret, Promise<CryptoKey>>()

/** The signing key of a server secret, derived once; derived again after a failure (its storage was down). */
const keyOf = (secret: ServerSecret): Effect.Effect<CryptoKey> =>
  Effect.promise(() => {
    let key = keys.get(secret)
    if (key === undefined) {
      key = secret
        .read()
        .then(deriveHostedPageKey)
        .catch((error: unknown) => {
          keys.delete(secret)
          throw error
        })
      keys.set(secret, key)
    }
    return key
  })

const csrfKeys = new WeakMap<ServerSecret, Promise<CryptoKey>>()

/** The CSRF key of a server secret, derived once; derived again after a failure. */
const csrfKeyOf = (secret: ServerSecret): Effect.Effect<CryptoKey> =>
  Effect.promise(() => {
    let key = csrfKeys.get(secret)
    if (key === undefined) {
      key = secret
        .read()
        .then(deriveHostedPageCsrfKey)
        .catch((error: unknown) => {
          csrfKeys.delete(secret)
          throw error
        })
      csrfKeys.set(secret, key)
    }
    return key
  })

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isOneOf = <T extends string>(list: ReadonlyArray<T>, value: unknown): value is T =>
  list.some((item) => item === value)

/**
 * The body's purpose, read before the rest of the body because it decides the body's shape:
 * missing, blank or null is `missing` "Purpose is required"; anything but a known purpose `missing`
 * "Invalid purpose".
 */
const readPurpose = (body: unknown): Effect.Effect<HostedPagePurpose, Invalid> => {
  if (!isPlainObject(body)) return Effect.fail(Invalid.missing("body", "Body must be a JSON object"))
  const { purpose } = body
  if (purpose === undefined || purpose === null || purpose === "") {
    return Effect.fail(Invalid.missing("purpose", msg.purposeRequired))
  }
  return isOneOf(hostedPagePurposes, purpose)
    ? Effect.succeed(purpose)
    : Effect.fail(Invalid.missing("purpose", msg.purposeInvalid))
}

/**
 * The path's entity, live and of the path's company, else `not_found` on `entity_id` as if missing: another
 * company's entity answers as every other path id of another company does, for every purpose.
 */
const findPathEntity = (tx: Lifted<Repositories>, companyId: CompanyId, entityId: EntityId) =>
  tx.entities
    .findActive(companyId, entityId)
    .pipe(
      Effect.flatMap((entity) =>
        entity === undefined
          ? Effect.fail(new NotFound({ field: "entity_id", message: messages.entityNotFound }))
          : Effect.succeed(entity),
      ),
    )

/** The workspace's application `id` while its company and entity are live, else `not_found` on `application_id`. */
const findApplication = (tx: Lifted<Repositories>, actor: Actor, id: ApplicationId) =>
  Effect.gen(function* () {
    const notFound = new NotFound({ field: "application_id", message: msg.applicationNotFound })
    if (id.length === 0 || id.length > 128) return yield* Effect.fail(notFound)
    const feature = yield* tx.features.findByApplicationId(actor.workspaceId, id)
    if (feature === undefined) return yield* Effect.fail(notFound)
    const company = yield* tx.companies.find(actor.workspaceId, feature.company_id)
    const entity = yield* tx.entities.findActive(feature.company_id, feature.entity_id)
    if (company === undefined || company.deleted_at !== null || entity === undefined) {
      return yield* Effect.fail(notFound)
    }
    return feature
  })

/** A hosted-page token is a credential for 2 hours: its answer is kept as unreadable as the other secrets. */
export const hostedPageTokenAnswerSecrets: AnswerSecrets = { fields: ["token"] }

/**
 * Hosted-page tokens (spec "Hosted-page token object", "Authentication" 4-5): short-lived JWTs that
 * give a person one task on a hosted page, and their check. Nothing is stored: a token is its own
 * record, signed with a key of its own derived from the server secret (see `rules/hosted-page-jwt.ts`).
 */
export const makeHostedPageTokens = (ports: ServicePorts) => {
  /**
   * Signs `scope` at the workspace's time, with the return URL the workspace trusts, as the token
   * object. The key is read before the transaction: a secret read from storage (as an embedder's
   * `ServerSecret` may) would need a second transaction, which on SQLite waits for this one forever.
   */
  const issue = (
    key: CryptoKey,
    tx: Lifted<Repositories>,
    actor: Actor,
    scope: Omit<HostedPageScope, "workspaceId" | "returnUrl">,
    returnUrl: string | undefined,
  ) =>
    Effect.gen(function* () {
      const trusted = yield* checkedReturnUrl(ports, tx, actor.workspaceId, returnUrl)
      const now = (yield* workspaceClock(ports, tx, actor.workspaceId)).now()
      const full: HostedPageScope = {
        ...scope,
        workspaceId: actor.workspaceId,
        ...(trusted === undefined ? {} : { returnUrl: trusted }),
      }
      const token = yield* Effect.promise(() => signHostedPageToken(key, full, ports.ids.next("hpt"), now))
      const answer: HostedPageToken = {
        token,
        purpose: scope.purpose,
        ...(scope.recipientId === undefined ? {} : { recipient_id: scope.recipientId as RecipientId }),
        ...(scope.featureIdentifier === undefined
          ? {}
          : { feature_identifier: scope.featureIdentifier as FeatureIdentifier }),
        ...(scope.applicationId === undefined ? {} : { application_id: scope.applicationId as ApplicationId }),
        ...(trusted === undefined ? {} : { return_url: trusted }),
      }
      return answer
    })

  return {
    /**
     * A token for a page about one entity: `recipient_add_bank_account` (a recipient of the
     * company), or `onboarding` / `pending_action` (the entity's multi-currency application while
     * CREATED / ACTION_REQUIRED). `funding_accounts` is `missing` on `purpose` here (see `createForFunding`).
     * The path's company and entity must be live and the caller's, else `not_found` (`company_id`,
     * `entity_id`) as if missing, whatever the purpose.
     *
     * @example
     * const { token } = await engine.hostedPageTokens.createForEntity(actor, cid, eid, {
     *   purpose: "recipient_add_bank_account", recipient_id: rid,
     * })
     */
    createForEntity: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      body: EntityHostedPageTokenBody,
    ): Effect.Effect<HostedPageToken, Invalid | Forbidden | NotFound> =>
      Effect.gen(function* () {
        const purpose = yield* readPurpose(body)
        if (isOneOf(fundingTokenPurposes, purpose)) {
          return yield* Effect.fail(Invalid.missing("purpose", msg.fundingPurposeOnEntityRoute(purpose)))
        }
        if (isOneOf(recipientTokenPurposes, purpose)) {
          const input = yield* decodeBody(RecipientTokenRequest, body)
          const key = yield* keyOf(ports.serverSecret)
          return yield* inCompany(ports, actor, companyId, ({ tx, company }) =>
            Effect.gen(function* () {
              const entity = yield* findPathEntity(tx, company.id, entityId)
              const recipient = yield* tx.recipients.findActive(company.id, input.recipient_id)
              if (recipient === undefined) {
                return yield* Effect.fail(Invalid.rule("recipient_id", msg.recipientNotOfCompany))
              }
              return yield* issue(
                key,
                tx,
                actor,
                { purpose: input.purpose, companyId: company.id, entityId: entity.id, recipientId: recipient.id },
                input.return_url,
              )
            }),
          )
        }
        const input = yield* decodeBody(FeatureTokenRequest, body, { badRequestFields: ["feature_identifier"] })
        const featurePurpose: FeatureTokenPurpose = input.purpose
        const key = yield* keyOf(ports.serverSecret)
        return yield* inCompany(ports, actor, companyId, ({ tx, company }) =>
          Effect.gen(function* () {
            const entity = yield* findPathEntity(tx, company.id, entityId)
            const application = yield* findApplication(tx, actor, input.application_id)
            if (application.entity_id !== entity.id) {
              return yield* Effect.fail(Invalid.rule("application_id", msg.applicationOfAnotherEntity))
            }
            if (application.feature_identifier !== input.feature_identifier) {
              return yield* Effect.fail(Invalid.rule("application_id", msg.applicationWrongType))
            }
            const required = requiredFeatureStatus[featurePurpose]
            if (application.status !== required) {
              return yield* Effect.fail(Invalid.rule("base", msg.statusMismatch(required, application.status)))
            }
            return yield* issue(
              key,
              tx,
              actor,
              {
                purpose: featurePurpose,
                companyId: company.id,
                entityId: entity.id,
                applicationId: application.application_id,
                featureIdentifier: application.feature_identifier,
              },
              input.return_url,
            )
          }),
        )
      }).pipe(writeAccess(actor)),

    /**
     * A `funding_accounts` token for an entity of a company of the caller's workspace that has a
     * multi-currency account (`POST /api/v1/hosted_page_tokens`). Any other purpose is `forbidden`
     * on `purpose`; an entity of no company of the workspace `invalid` on `entity_id`.
     *
     * @example
     * const { token } = await engine.hostedPageTokens.createForFunding(actor, {
     *   purpose: "funding_accounts", entity_id: eid,
     * })
     */
    createForFunding: (
      actor: Actor,
      body: FundingTokenBody,
    ): Effect.Effect<HostedPageToken, Invalid | Forbidden | NotFound> =>
      Effect.gen(function* () {
        const purpose = yield* readPurpose(body)
        if (!isOneOf(fundingTokenPurposes, purpose)) {
          return yield* Effect.fail(
            new Forbidden({ field: "purpose", message: msg.entityPurposeOnFundingRoute(purpose) }),
          )
        }
        const input = yield* decodeBody(FundingTokenRequest, body)
        const key = yield* keyOf(ports.serverSecret)
        return yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const notOfWorkspace = Invalid.rule("entity_id", msg.entityNotOfWorkspace)
            const entity = yield* tx.entities.findActiveById(input.entity_id)
            if (entity === undefined) return yield* Effect.fail(notOfWorkspace)
            const company = yield* tx.companies.find(actor.workspaceId, entity.company_id)
            if (company === undefined || company.deleted_at !== null) return yield* Effect.fail(notOfWorkspace)
            const features = yield* tx.features.listByEntity(entity.id)
            if (!features.some((feature) => feature.feature_identifier === "multi_currency_account")) {
              return yield* Effect.fail(Invalid.rule("entity_id", msg.multiCurrencyAccountMissing))
            }
            return yield* issue(
              key,
              tx,
              actor,
              { purpose: input.purpose, companyId: company.id, entityId: entity.id },
              input.return_url,
            )
          }),
        )
      }).pipe(writeAccess(actor)),

    /**
     * The claims of a hosted-page token, or why it is refused: `invalid` (tampered, malformed,
     * signed with another key, an API bearer token), `expired` (2 hours after it was issued, by
     * its workspace's clock), `wrong_purpose` (not one of `options.purposes`), `used` (its task is done, unless `options.acceptUsed`). Never fails.
     *
     * @example
     * declare const token: string, show401: (reason: string) => void // the embedder's page
     * const checked = await engine.hostedPageTokens.verify(token, { purposes: ["funding_accounts"] })
     * if (!checked.valid) return show401(checked.reason)
     */
    verify: (token: string, options: HostedPageVerifyOptions = {}): Effect.Effect<HostedPageVerification> =>
      Effect.gen(function* () {
        const key = yield* keyOf(ports.serverSecret)
        // No workspace's clock is behind the engine's: a token expired by it is expired.
        const checked = yield* Effect.promise(() => verifyHostedPageToken(key, token, ports.clock.now()))
        if (!checked.valid) return checked
        const { claims } = checked
        if (ports.testClocks) {
          const clock = yield* peekWorkspaceClock(ports, claims.workspaceId as Actor["workspaceId"])
          if (claims.expiresAt.getTime() <= clock.now().getTime()) {
            return { valid: false, reason: "expired" } as const
          }
        }
        if (options.purposes !== undefined && !options.purposes.includes(claims.purpose)) {
          return { valid: false, reason: "wrong_purpose" } as const
        }
        if (options.acceptUsed !== true) {
          const used = yield* inRead(ports.storage, (tx) => tx.usedHostedPageTokens.isUsed(claims.tokenId))
          if (used) return { valid: false, reason: "used" } as const
        }
        return checked
      }),

    /**
     * The CSRF token the hosted pages put in every form shown to the holder of a verified token:
     * an HMAC of its `jti` under a key of its own (rules/hosted-page-csrf.ts).
     *
     * @example
     * const csrf = await engine.hostedPageTokens.csrfToken(claims)
     */
    csrfToken: (claims: Pick<HostedPageClaims, "tokenId">): Effect.Effect<string> =>
      Effect.gen(function* () {
        const key = yield* csrfKeyOf(ports.serverSecret)
        return yield* Effect.promise(() => hostedPageCsrfToken(key, claims.tokenId))
      }),

    /**
     * True when `csrf` is the CSRF token of the verified token's `claims` (constant-time). Never fails.
     *
     * @example
     * declare const form: { csrf: string }, show403: () => void // the embedder's page
     * if (!(await engine.hostedPageTokens.checkCsrfToken(claims, form.csrf))) return show403()
     */
    checkCsrfToken: (claims: Pick<HostedPageClaims, "tokenId">, csrf: string): Effect.Effect<boolean> =>
      Effect.gen(function* () {
        const key = yield* csrfKeyOf(ports.serverSecret)
        return yield* Effect.promise(() => checkHostedPageCsrfToken(key, claims.tokenId, csrf))
      }),
  }
}

export type HostedPageTokens = ReturnType<typeof makeHostedPageTokens>

/** The background job of hosted-page tokens: the hourly purge of used-up ones that expired. */
export const makeHostedPageTokenJobs = (ports: Pick<ServicePorts, "storage" | "clock">) => ({
  /**
   * Forgets the used-up tokens that have expired: refused as expired, they need no record
   * (the hourly `purge_used_hosted_page_tokens` job). How many were forgotten.
   */
  purgeUsed: (): Effect.Effect<number> =>
    inTransaction(ports.storage, (tx) => tx.usedHostedPageTokens.purgeExpired(ports.clock.now().toISOString())),
})
