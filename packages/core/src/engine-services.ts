import type { Actor } from "./model/types/actor.ts"
import type {
  ApiKeyListing,
  ApiKeyRequest,
  AuthenticatedKey,
  IssuedApiKey,
  RotatedApiKey,
  TokenClaims,
} from "./model/types/api-keys.ts"
import type {
  BankAccount,
  BankAccountCreateBody,
  CreateForRecipientOptions,
  FundingAccount,
  FundingAccountLinkBody,
  FundingMandateForm,
} from "./model/types/bank-account.ts"
import type { RequirementsBody } from "./model/types/bank-account-requirements.ts"
import type { Company, CompanyCreateBody, CompanyCreateOptions, CompanyUpdateBody } from "./model/types/company.ts"
import type { Entity, EntityCreateBody, EntityDeleted, EntityUpdateBody } from "./model/types/entity.ts"
import type { EventResource, WebhookEventCategoryEntry } from "./model/types/events.ts"
import type { Feature, FeatureEnableBody, FeatureEnabled, FeatureStatusChangeBody } from "./model/types/feature.ts"
import type {
  EntityHostedPageTokenBody,
  FundingTokenBody,
  HostedPageClaims,
  HostedPageToken,
  HostedPageVerification,
  HostedPageVerifyOptions,
  SubmitOptions,
} from "./model/types/hosted-page-token.ts"
import type { IdempotencyDecision, StoredResponse } from "./model/types/idempotency.ts"
import type {
  ApplicationId,
  BankAccountId,
  CompanyId,
  EntityId,
  EventId,
  OnboardingAttachmentId,
  OnboardingPersonId,
  PaymentBatchId,
  PaymentId,
  RecipientId,
  WebhookDeliveryId,
  WebhookEndpointId,
  WebhookRecoveryId,
} from "./model/types/ids.ts"
import type { EntityOnboarding, OnboardingUpdateBody } from "./model/types/onboarding.ts"
import type { AttachmentContent, AttachmentUpload, OnboardingAttachment } from "./model/types/onboarding-attachment.ts"
import type { OnboardingPerson, PersonBody } from "./model/types/onboarding-person.ts"
import type { Page, PageQuery } from "./model/types/page.ts"
import type { PaymentCreateBody, PaymentCreated, PaymentInstruction } from "./model/types/payment.ts"
import type { PaymentBatch, PaymentBatchCreateBody, PaymentBatchCreated } from "./model/types/payment-batch.ts"
import type { Quote, QuoteCreateBody } from "./model/types/quote.ts"
import type { Recipient, RecipientCreateBody } from "./model/types/recipient.ts"
import type { SessionCreateBody } from "./model/types/session.ts"
import type { ClockAdvanceBody } from "./model/types/test-clock.ts"
import type { TrustedDomainConfig, TrustedDomainsBody } from "./model/types/trusted-domain-config.ts"
import type { WebhookDelivery, WebhookEndpointTest } from "./model/types/webhook-delivery.ts"
import type {
  WebhookEndpoint,
  WebhookEndpointCreateBody,
  WebhookEndpointCreated,
  WebhookEndpointUpdateBody,
  WebhookSecretRotated,
} from "./model/types/webhook-endpoint.ts"
import type { WebhookRecovery, WebhookRecoveryCreateBody } from "./model/types/webhook-recovery.ts"
import type { WorkspaceRecord } from "./model/types/workspace.ts"
import type { WorkspaceBranding, WorkspaceBrandingUpdateBody } from "./model/types/workspace-branding.ts"
import type { PaymentMethodOption, RequirementsSchema } from "./ports/payment-provider.ts"
import type { FingerprintedRequest } from "./rules/idempotency-fingerprint.ts"

/*
 * The engine's use cases as a caller of the Promise facade sees them, written out: the main
 * entry's `Engine` names these types only, none of effect's, so that a program embedding the
 * engine does not make its compiler check effect's declarations (docs/decisions.md, "Public
 * types"). Each is the Effect API's use case of the same name (`EngineEffects` of the `/effect`
 * entry) run to a promise that rejects with the domain error: `engine.test.ts` checks that the
 * two are the same types, use case by use case.
 */

/** Every service of the engine with its use cases, by the name it has on the engine. */
export interface EngineServices {
  /** Workspaces, API keys, the check of a key and secret, and stored settings. */
  readonly access: {
    /**
     * Issues an API key in a workspace, creating the workspace when it does not exist yet.
     *
     * @example
     * const { api_key, api_secret } = await engine.access.createApiKey({ workspace: "acme", scope: "read" })
     */
    readonly createApiKey: (request: ApiKeyRequest) => Promise<IssuedApiKey>
    /**
     * The workspace of that name, created when missing: the tenant an embedder acts in.
     *
     * @example
     * const { id } = await engine.access.ensureWorkspace("acme")
     * const actor: Actor = { workspaceId: id, scope: "write" }
     */
    readonly ensureWorkspace: (name: string) => Promise<WorkspaceRecord>
    /** True once any API key exists: an empty database gets a bootstrap key at start. */
    readonly hasApiKeys: () => Promise<boolean>
    /** Whether this exact key exists already (for the bootstrap key from the environment). */
    readonly apiKeyExists: (key: string) => Promise<boolean>
    /**
     * Checks the body of `POST /api/v1/sessions` (`api_key`, `api_secret`): the key's actor, `missing`
     * when a field is missing, or `unauthenticated` on `api_key`. A revoked key is refused like an
     * unknown one. A rotated key's previous secret works until its grace period ends (`endsBy`). An
     * unknown or revoked key costs as much as a wrong secret, so timing does not tell which keys exist.
     */
    readonly authenticate: (body: SessionCreateBody) => Promise<AuthenticatedKey>
    /** A setting kept in storage, written once: the first writer's value wins across processes. */
    readonly settingOrInit: (name: string, init: () => string) => Promise<string>
    /**
     * The keys of one workspace (by name), or of every workspace, in creation order.
     *
     * @example
     * const keys = await engine.access.listApiKeys("acme")
     */
    readonly listApiKeys: (workspace?: string) => Promise<ReadonlyArray<ApiKeyListing>>
    /**
     * Revokes a key for good: it opens no session from now on, and its bearer tokens stop working
     * as soon as each process's cache of key states expires. Revoking a revoked key changes nothing.
     *
     * @example
     * const { revoked_at } = await engine.access.revokeApiKey("pk_...")
     */
    readonly revokeApiKey: (key: string) => Promise<ApiKeyListing>
    /**
     * Gives a key a new secret, shown this once. The previous secret keeps opening sessions for
     * `graceSeconds` ({@link defaultRotationGraceSeconds} by default; 0 ends it at once), and no
     * session it opens outlives that. A second rotation ends the first one's old secret at once.
     *
     * @example
     * const { api_secret } = await engine.access.rotateApiKey("pk_...", 3600)
     */
    readonly rotateApiKey: (key: string, graceSeconds?: number) => Promise<RotatedApiKey>
    /**
     * The actor a bearer token stands for, if its key still exists, is not revoked, and belongs to
     * the workspace and scope the token names; undefined otherwise. The key belonging to the
     * workspace also proves the workspace exists.
     *
     * @example
     * declare const keyId: ApiKeyId
     * const actor = await engine.access.tokenActor({ workspaceId, keyId, scope: "write" })
     */
    readonly tokenActor: (claims: TokenClaims) => Promise<Actor | undefined>
  }
  readonly companies: {
    readonly create: (actor: Actor, body: CompanyCreateBody, options?: CompanyCreateOptions) => Promise<Company>
    /** Fetches a company by id, also once deleted. */
    readonly get: (actor: Actor, id: CompanyId) => Promise<Company>
    readonly update: (actor: Actor, id: CompanyId, body: CompanyUpdateBody) => Promise<Company>
    /** Soft-deletes an API-created company; it leaves lists but can still be fetched by id. */
    readonly delete: (actor: Actor, id: CompanyId) => Promise<Company>
    /** Companies of the workspace that are not deleted, oldest first. */
    readonly list: (actor: Actor, query?: PageQuery) => Promise<Page<Company>>
  }
  readonly entities: {
    readonly create: (actor: Actor, companyId: CompanyId, body: EntityCreateBody) => Promise<Entity>
    readonly get: (actor: Actor, companyId: CompanyId, id: EntityId) => Promise<Entity>
    readonly update: (actor: Actor, companyId: CompanyId, id: EntityId, body: EntityUpdateBody) => Promise<Entity>
    /** Soft-deletes the entity, which frees the company to create another. */
    readonly delete: (actor: Actor, companyId: CompanyId, id: EntityId) => Promise<EntityDeleted>
    readonly list: (actor: Actor, companyId: CompanyId, query?: PageQuery) => Promise<Page<Entity>>
  }
  /** Entity features (the multi-currency account): enable, list, the person's submission, and the sandbox's status changes. */
  readonly features: {
    /**
     * The entity's features, oldest first.
     *
     * @example
     * const features = await engine.features.list(actor, cid, eid)
     */
    readonly list: (actor: Actor, companyId: CompanyId, entityId: EntityId) => Promise<ReadonlyArray<Feature>>
    /**
     * Enables a feature for a US entity: a new application in CREATED (`created: true`), or the
     * entity's application when it is still CREATED (`created: false`). One application per entity
     * and feature, also when enables race; an application past CREATED is `invalid` on `base`.
     *
     * @example
     * const { feature, created } = await engine.features.enable(actor, cid, eid, { feature_identifier: "multi_currency_account" })
     */
    readonly enable: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      body: FeatureEnableBody,
    ) => Promise<FeatureEnabled>
    /**
     * Moves an application to `status` (SUBMITTED, ACTIVE or ACTION_REQUIRED) as the provider's
     * review would, along the transitions the feature machine allows (else `invalid` on
     * `status`); the sandbox helper's use case. ACTIVE marks the entity's payment integration active. Of racing
     * changes one wins; the others get `conflict` on `status`.
     *
     * @example
     * declare const feature: Feature
     * await engine.features.setStatus(actor, feature.application_id, "SUBMITTED")
     * await engine.features.setStatus(actor, feature.application_id, "ACTIVE")
     */
    readonly setStatus: (
      actor: Actor,
      applicationId: ApplicationId,
      status: FeatureStatusChangeBody["status"],
    ) => Promise<Feature>
    /**
     * The person's submission of the entity's application (its onboarding done, or the information
     * asked for given): CREATED or ACTION_REQUIRED moves to SUBMITTED, its onboarding to submitted.
     * The application must be the entity's (else `not_found` on `application_id`); an onboarding
     * without the business's name, address or a person is `invalid` on each missing field; an
     * application in another status is `invalid` on `status`.
     *
     * @example
     * declare const applicationId: ApplicationId
     * await engine.features.submit(actor, { companyId, entityId, applicationId })
     */
    readonly submit: (
      actor: Actor,
      scope: {
        readonly companyId: CompanyId
        readonly entityId: EntityId
        readonly applicationId: ApplicationId
      },
      options?: SubmitOptions,
    ) => Promise<Feature>
  }
  /** An entity's onboarding data (business details, addresses, identifiers, contact) and its persons. */
  readonly onboardings: {
    /**
     * The entity's onboarding with its persons, or null before anything was saved.
     *
     * @example
     * const onboarding = await engine.onboardings.get(actor, cid, eid) // null at first
     */
    readonly get: (actor: Actor, companyId: CompanyId, entityId: EntityId) => Promise<EntityOnboarding | null>
    /**
     * Saves any section of the onboarding (business details, the two addresses, identifiers,
     * which a given array replaces, primary contact), creating it on first use with the status
     * its entity's feature gives it. Fields left out keep their values; null clears one.
     *
     * @example
     * await engine.onboardings.update(actor, cid, eid, { business_details: { business_name: "Acme" } })
     */
    readonly update: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      body: OnboardingUpdateBody,
    ) => Promise<EntityOnboarding>
    /** The entity's persons, oldest first, 25 a page. */
    readonly listPersons: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      query?: PageQuery,
    ) => Promise<Page<OnboardingPerson>>
    /**
     * Every person of the entity, oldest first, unpaged, tax ids masked: also before any
     * onboarding is saved (when `get` answers null), for a page that shows them all at once.
     *
     * @example
     * const persons = await engine.onboardings.allPersons(actor, cid, eid)
     */
    readonly allPersons: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
    ) => Promise<ReadonlyArray<OnboardingPerson>>
    /** A person of the entity, a tax id masked to its last four characters. */
    readonly getPerson: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      id: OnboardingPersonId,
    ) => Promise<OnboardingPerson>
    /**
     * Adds a person (every field optional). The answer echoes a tax id as sent; storage keeps it
     * sealed with its last four characters, and every later read masks it.
     *
     * @example
     * await engine.onboardings.createPerson(actor, cid, eid, { first_name: "Ada", roles: ["director"] })
     */
    readonly createPerson: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      body: PersonBody,
    ) => Promise<OnboardingPerson>
    /** Changes any of the create fields; identifications given replace the person's. */
    readonly updatePerson: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      id: OnboardingPersonId,
      body: PersonBody,
    ) => Promise<OnboardingPerson>
    /** Removes a person, with its identifications. */
    readonly deletePerson: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      id: OnboardingPersonId,
    ) => Promise<void>
  }
  readonly onboardingAttachments: {
    /**
     * Stores a supporting document: its type detected from its first bytes (PDF, PNG or JPEG
     * only), at most 10 MiB (10,485,760 bytes), with its SHA-256 and its name made safe. The
     * bytes (whole, or a stream read once) go to the blob store as they are read, which counts
     * and hashes them; a stream that passes 10 MiB or fails leaves nothing stored. If the row
     * then cannot be written, the bytes are removed again.
     *
     * @example
     * await engine.onboardingAttachments.create(actor, cid, eid, {
     *   document_type: "bank_statement",
     *   file: { name: "statement.pdf", bytes },
     * })
     */
    readonly create: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      upload: AttachmentUpload,
    ) => Promise<OnboardingAttachment>
    /** The entity's attachments, oldest first (id order), 25 a page. */
    readonly list: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      query?: PageQuery,
    ) => Promise<Page<OnboardingAttachment>>
    /** An attachment of the entity (its row, not its bytes). */
    readonly get: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      id: OnboardingAttachmentId,
    ) => Promise<OnboardingAttachment>
    /**
     * An attachment's row and its bytes, for a download.
     *
     * @example
     * declare const id: OnboardingAttachmentId
     * const { attachment, bytes } = await engine.onboardingAttachments.content(actor, cid, eid, id)
     */
    readonly content: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      id: OnboardingAttachmentId,
    ) => Promise<AttachmentContent>
    /** Removes an attachment: its row, then its bytes. */
    readonly delete: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      id: OnboardingAttachmentId,
    ) => Promise<void>
  }
  readonly recipients: {
    readonly create: (actor: Actor, companyId: CompanyId, body: RecipientCreateBody) => Promise<Recipient>
    readonly get: (actor: Actor, companyId: CompanyId, id: RecipientId) => Promise<Recipient>
    readonly delete: (actor: Actor, companyId: CompanyId, id: RecipientId) => Promise<void>
    readonly list: (actor: Actor, companyId: CompanyId, query?: PageQuery) => Promise<Page<Recipient>>
  }
  /** The `Idempotency-Key` records of a binding: begin, complete, abandon. */
  readonly idempotency: {
    /**
     * Claims the key for this request, or says what to answer instead.
     *
     * @example
     * declare const key: string, path: string, body: CompanyCreateBody
     * const decision = await engine.idempotency.begin(actor, key, { method: "POST", path, body })
     * if (decision.kind === "replay") return decision.response
     * const answer = await engine.companies.create({ ...actor, idempotencyKey: key }, body)
     */
    readonly begin: (actor: Actor, key: string, request: FingerprintedRequest) => Promise<IdempotencyDecision>
    /** Remembers the response of the request that claimed the key; its journal is no longer needed. */
    readonly complete: (actor: Actor, key: string, response: StoredResponse) => Promise<void>
    /**
     * Lets a retry run again after a failure that it may fix (`provider_failure`, `rate_limited`, a
     * defect): the key is forgotten when nothing of the request committed, or else released, its
     * journal kept, for the retry to take over at once and replay what committed.
     */
    readonly abandon: (actor: Actor, key: string) => Promise<void>
  }
  readonly paymentMethods: {
    /**
     * The bank countries the payment provider pays to, as ISO codes in order: what a form offers as
     * the country of a recipient's bank (the hosted bank-account page lists them by name).
     *
     * @example
     * const countries = await engine.paymentMethods.bankCountries(actor) // ["AU", "CA", ..., "US"]
     */
    readonly bankCountries: (actor: Actor) => Promise<ReadonlyArray<string>>
    /** `GET /api/v1/payment_methods`: transfer methods for a bank country, currency and entity type. */
    readonly list: (actor: Actor, query: unknown) => Promise<ReadonlyArray<PaymentMethodOption>>
    /** `POST /api/v1/bank_account_requirements`: the form schema; provider refusals are `invalid` on `base` with its message. */
    readonly requirements: (actor: Actor, body: RequirementsBody) => Promise<Omit<RequirementsSchema, "payment_method">>
  }
  readonly bankAccounts: {
    /**
     * Validates `beneficiary_details` against the provider's requirements (every failing field at
     * once), registers the beneficiary, and stores the account with a `credit` profile and its
     * events in one transaction.
     */
    readonly createForRecipient: (
      actor: Actor,
      companyId: CompanyId,
      recipientId: RecipientId,
      body: BankAccountCreateBody,
      options?: CreateForRecipientOptions,
    ) => Promise<BankAccount>
    readonly get: (actor: Actor, companyId: CompanyId, id: BankAccountId) => Promise<BankAccount>
    readonly list: (actor: Actor, companyId: CompanyId, query?: PageQuery) => Promise<Page<BankAccount>>
  }
  readonly fundingAccounts: {
    /**
     * The entity's funding accounts: its bank accounts with a `debit` profile not removed
     * (`inactive`), in id order, each with its profiles. An entity not in the actor's workspace (or deleted) is `not_found`.
     *
     * @example
     * const accounts = await engine.fundingAccounts.list(actor, entityId)
     */
    readonly list: (actor: Actor, entityId: EntityId) => Promise<ReadonlyArray<FundingAccount>>
    /**
     * Removes one of the entity's funding accounts: its active `debit` profiles become `inactive`
     * (the account and its profiles stay, for the payments that used them), unless a payment
     * drawing on it is pending or processing (`invalid` on `bank_account_id`, rules/funding-account-removal.ts).
     * An account that is not a funding account of this entity, or already removed, is `not_found`;
     * a profile another writer moved meanwhile is a `conflict`.
     *
     * @example
     * declare const bankAccountId: BankAccountId
     * await engine.fundingAccounts.remove(actor, entityId, bankAccountId)
     */
    readonly remove: (actor: Actor, entityId: EntityId, bankAccountId: BankAccountId) => Promise<void>
    /**
     * The banks the bank-linking provider offers, as `{ id, name }`.
     *
     * @example
     * const banks = await engine.fundingAccounts.institutions()
     */
    readonly institutions: () => Promise<
      ReadonlyArray<{
        readonly id: string
        readonly name: string
      }>
    >
    /**
     * The hosted page's link: checks the bank and the mandate (`mandate_email`, `signatory_name`),
     * every field at once in one `invalid`, then links as {@link link} does and keeps the mandate
     * (e-mail, signatory, when) with the account, in the same transaction.
     *
     * @example
     * await engine.fundingAccounts.linkWithMandate(actor, entityId, { institution_id: "sandbox_tartan", mandate_email: "a@b.co", signatory_name: "Ada" })
     */
    readonly linkWithMandate: (actor: Actor, entityId: EntityId, body: FundingMandateForm) => Promise<BankAccount>
    /**
     * Links an account at a (test) bank for the entity and stores it as a bank account with an
     * active `debit` profile, as the hosted page does once the user finishes. An `institution_id`
     * the bank linker does not offer is `invalid` on that field.
     */
    readonly link: (actor: Actor, entityId: EntityId, body: FundingAccountLinkBody) => Promise<BankAccount>
  }
  /** Hosted-page tokens: issue them for a recipient, a feature application or funding accounts; verify them. */
  readonly hostedPageTokens: {
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
    readonly createForEntity: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      body: EntityHostedPageTokenBody,
    ) => Promise<HostedPageToken>
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
    readonly createForFunding: (actor: Actor, body: FundingTokenBody) => Promise<HostedPageToken>
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
    readonly verify: (token: string, options?: HostedPageVerifyOptions) => Promise<HostedPageVerification>
    /**
     * The CSRF token the hosted pages put in every form shown to the holder of a verified token:
     * an HMAC of its `jti` under a key of its own (rules/hosted-page-csrf.ts).
     *
     * @example
     * const csrf = await engine.hostedPageTokens.csrfToken(claims)
     */
    readonly csrfToken: (claims: Pick<HostedPageClaims, "tokenId">) => Promise<string>
    /**
     * True when `csrf` is the CSRF token of the verified token's `claims` (constant-time). Never fails.
     *
     * @example
     * declare const form: { csrf: string }, show403: () => void // the embedder's page
     * if (!(await engine.hostedPageTokens.checkCsrfToken(claims, form.csrf))) return show403()
     */
    readonly checkCsrfToken: (claims: Pick<HostedPageClaims, "tokenId">, csrf: string) => Promise<boolean>
  }
  readonly quotes: {
    /**
     * Prices a transfer between two profiles (net or gross, same or cross currency) and keeps the
     * price for 15 minutes. The FX rate is asked of the provider outside any transaction.
     */
    readonly create: (actor: Actor, companyId: CompanyId, body: QuoteCreateBody) => Promise<Quote>
  }
  readonly payments: {
    /**
     * Creates a payment from a quote; a payment outside a batch is executed in the background
     * right after. The business `idempotency_key` is unique per company, forever.
     */
    readonly create: (actor: Actor, companyId: CompanyId, body: PaymentCreateBody) => Promise<PaymentCreated>
    readonly get: (actor: Actor, companyId: CompanyId, id: PaymentId) => Promise<PaymentInstruction>
    /** Payments of the company, oldest first, filtered by `status` and `payment_batch_id`. */
    readonly list: (
      actor: Actor,
      companyId: CompanyId,
      query?: PageQuery & {
        readonly status?: unknown
        readonly payment_batch_id?: unknown
      },
    ) => Promise<Page<PaymentInstruction>>
    /** Cancels a pending payment; any other status is `invalid`, naming it. */
    readonly cancel: (actor: Actor, companyId: CompanyId, id: PaymentId) => Promise<PaymentInstruction>
  }
  /** Payment batches: create, list, fetch, process. */
  readonly paymentBatches: {
    /**
     * Creates a batch in `building`, with its expiry queued for when it is seven days old. With
     * an `idempotency_key` the company already used: the same label and metadata answer with
     * that batch (`created: false`), others are `invalid` on `idempotency_key`.
     *
     * @example
     * const { batch } = await engine.paymentBatches.create(actor, cid, { payment_batch: { label: "May payroll" } })
     */
    readonly create: (actor: Actor, companyId: CompanyId, body: PaymentBatchCreateBody) => Promise<PaymentBatchCreated>
    /** A batch of the company, with its counts as they are now (a batch being processed shows its progress). */
    readonly get: (actor: Actor, companyId: CompanyId, id: PaymentBatchId) => Promise<PaymentBatch>
    /** Batches of the company, oldest first, filtered by `status`, `from_date` and `to_date` (inclusive). */
    readonly list: (
      actor: Actor,
      companyId: CompanyId,
      query?: PageQuery & {
        readonly status?: unknown
        readonly from_date?: unknown
        readonly to_date?: unknown
      },
    ) => Promise<Page<PaymentBatch>>
    /**
     * Moves a building batch of 1 to 500 payments to `processing` and queues the job that
     * starts them. Exactly one of any number of concurrent calls wins (a compare-and-set on the
     * status); the others find it processing: `conflict`.
     */
    readonly process: (actor: Actor, companyId: CompanyId, id: PaymentBatchId) => Promise<PaymentBatch>
  }
  /** The delivery log of webhook endpoints, its resends, and an endpoint's test delivery. */
  readonly webhookDeliveries: {
    /** The endpoint's deliveries, newest first, 25 a page, each with its attempts. */
    readonly list: (
      actor: Actor,
      companyId: CompanyId | null,
      endpointId: WebhookEndpointId,
      query?: PageQuery,
    ) => Promise<Page<WebhookDelivery>>
    /**
     * Sends a delivery again now, whatever its state (the machine's `resend`): it is pending
     * again with an attempt queued at once; what that attempt answers decides its state.
     */
    readonly retry: (
      actor: Actor,
      companyId: CompanyId | null,
      endpointId: WebhookEndpointId,
      id: WebhookDeliveryId,
    ) => Promise<WebhookDelivery>
    /**
     * Sends a signed `WebhookEndpointEvents::TestEvent` to the endpoint now, during the call, and
     * answers the attempt and its delivery. A test is a delivery like any other: it is logged,
     * counts toward the endpoint's circuit and its disabling, and a failed one is retried on the
     * schedule. It goes whatever the endpoint's circuit, and to an inactive endpoint too.
     */
    readonly test: (
      actor: Actor,
      companyId: CompanyId | null,
      endpointId: WebhookEndpointId,
    ) => Promise<WebhookEndpointTest>
  }
  /** Recoveries of an endpoint's failed deliveries: recover (a job), get. */
  readonly webhookRecoveries: {
    /**
     * Queues a recovery of the endpoint's deliveries that failed and were created at or after
     * `since` and before `until` (now when left out), by the workspace's clock: each is sent
     * again, keeping its event id. `since` may reach 14 days back; neither may be in the future.
     * The endpoint must be active. Answers the recovery, `queued`.
     */
    readonly recover: (
      actor: Actor,
      companyId: CompanyId | null,
      endpointId: WebhookEndpointId,
      body: WebhookRecoveryCreateBody,
    ) => Promise<WebhookRecovery>
    /** A recovery of the endpoint: how far its job got. Another endpoint's, or workspace's, is not found. */
    readonly get: (
      actor: Actor,
      companyId: CompanyId | null,
      endpointId: WebhookEndpointId,
      id: WebhookRecoveryId,
    ) => Promise<WebhookRecovery>
  }
  /** Sandbox mode: each workspace's test clock, its time and its moves. */
  readonly testClocks: {
    /** The actor's workspace's time now. */
    readonly now: (actor: Actor) => Promise<Date>
    /**
     * Moves the actor's workspace's clock forward by `{ seconds }` (0 to a year), and its waiting
     * jobs as much closer, in one transaction; returns the workspace's new time. Another
     * workspace's clock and jobs do not move. The jobs that became due are the runner's to run.
     *
     * @example
     * const { now } = await engine.testClocks.advance(actor, { seconds: 900 }) // quotes made before have expired
     */
    readonly advance: (
      actor: Actor,
      body: ClockAdvanceBody,
    ) => Promise<{
      readonly now: Date
    }>
  }
  /** The workspace's trusted return domains (hosted-page `return_url`): replace the list, read it. */
  readonly trustedDomains: {
    /**
     * Replaces the actor's workspace's list with `input.domains` (write scope): each a host name or
     * `*.` + host name, at most 50; stored normalised (lowercase, punycode, no trailing dot,
     * duplicates dropped). Every invalid entry fails at once as `invalid`, by field
     * (`domains.<index>`, or `domains` for the list).
     *
     * @example
     * const config = await engine.trustedDomains.upsert(actor, { domains: ["example.com", "*.example.com"] })
     */
    readonly upsert: (actor: Actor, input: TrustedDomainsBody) => Promise<TrustedDomainConfig>
    /**
     * The actor's workspace's configuration, or null when it has none (return URLs are then ignored).
     *
     * @example
     * const config = await engine.trustedDomains.get(actor) // { id: "tdc_...", domains: ["example.com"] } or null
     */
    readonly get: (actor: Actor) => Promise<TrustedDomainConfig | null>
    /**
     * The return URL a hosted-page token of the actor's workspace would carry, checked as token
     * issuance checks it ({@link checkedReturnUrl}): the normalised URL when trusted,
     * `invalid` on `return_url` when not, undefined when the workspace has no configuration (or no URL is given).
     *
     * @example
     * await engine.trustedDomains.checkReturnUrl(actor, "https://pay.example.com/done") // "https://pay.example.com/done"
     */
    readonly checkReturnUrl: (actor: Actor, returnUrl: string | undefined) => Promise<string | undefined>
  }
  /** The workspace's branding of its hosted pages: display name, logo URL, accent colour. */
  readonly workspaceBranding: {
    /**
     * Changes the actor's workspace's branding (write scope): a field left out is kept, null
     * removes it. The display name is trimmed (1 to 100 characters), the logo URL must be https
     * (at most 2048 characters), the accent colour `#rrggbb` (stored in lower case). Every invalid
     * field fails at once as `invalid`, by field.
     *
     * @example
     * const branding = await engine.workspaceBranding.update(actor, { display_name: "Initech", accent_color: "#0B5FFF" })
     * // { display_name: "Initech", logo_url: null, accent_color: "#0b5fff" }
     */
    readonly update: (actor: Actor, body: WorkspaceBrandingUpdateBody) => Promise<WorkspaceBranding>
    /**
     * The actor's workspace's branding; every field null when it has none.
     *
     * @example
     * const { display_name } = await engine.workspaceBranding.get(actor)
     */
    readonly get: (actor: Actor) => Promise<WorkspaceBranding>
  }
  /** Webhook endpoints: create (the secret shown once), get, list, update, toggle, delete. */
  readonly webhookEndpoints: {
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
    readonly create: (
      actor: Actor,
      companyId: CompanyId,
      body: WebhookEndpointCreateBody,
    ) => Promise<WebhookEndpointCreated>
    /** An endpoint with the events it subscribes to. */
    readonly get: (actor: Actor, companyId: CompanyId | null, id: WebhookEndpointId) => Promise<WebhookEndpoint>
    /** Endpoints of the company, oldest first, 25 a page, filtered by `active` (`true` or `false`). */
    readonly list: (
      actor: Actor,
      companyId: CompanyId,
      query?: PageQuery & {
        readonly active?: unknown
      },
    ) => Promise<Page<WebhookEndpoint>>
    /**
     * Changes any of `url`, `active` and `event_names` (which replaces the subscriptions; events
     * kept keep their subscription ids). The secret stays.
     */
    readonly update: (
      actor: Actor,
      companyId: CompanyId | null,
      id: WebhookEndpointId,
      body: WebhookEndpointUpdateBody,
    ) => Promise<WebhookEndpoint>
    /** Flips `active`. */
    readonly toggle: (actor: Actor, companyId: CompanyId | null, id: WebhookEndpointId) => Promise<WebhookEndpoint>
    /**
     * Gives the endpoint a new signing secret, answered this once; the old one keeps signing
     * deliveries beside it for 24 hours (`webhook-signature` carries both, `Service-Signature`
     * the new one), so receivers can switch without missing a delivery.
     */
    readonly rotateSecret: (
      actor: Actor,
      companyId: CompanyId | null,
      id: WebhookEndpointId,
    ) => Promise<WebhookSecretRotated>
    readonly delete: (actor: Actor, companyId: CompanyId | null, id: WebhookEndpointId) => Promise<void>
  }
  /** The catalogue of webhook events an endpoint may subscribe to. */
  readonly webhookEvents: {
    /**
     * Every webhook event, grouped by category in the spec's order, each with its name, display
     * name, action and description; the same for every caller.
     *
     * @example
     * const categories = await engine.webhookEvents.list()
     */
    readonly list: () => Promise<ReadonlyArray<WebhookEventCategoryEntry>>
  }
  /** The workspace's events (the outbox), with the payloads their webhooks carry: list, get. */
  readonly events: {
    /**
     * The workspace's events, newest first, 25 a page, filtered by `type`, `resource_id`,
     * `created_from` (inclusive) and `created_before` (exclusive).
     *
     * @example
     * declare const paymentId: PaymentId
     * const page = await engine.events.list(actor, { resource_id: paymentId })
     */
    readonly list: (
      actor: Actor,
      query?: PageQuery & {
        readonly type?: unknown
        readonly resource_id?: unknown
        readonly created_from?: unknown
        readonly created_before?: unknown
      },
    ) => Promise<Page<EventResource>>
    /** One event of the workspace; another workspace's is not found, as a missing one. */
    readonly get: (actor: Actor, id: EventId) => Promise<EventResource>
  }
}
