import { Effect } from "effect"
import type { DomainError } from "./errors.ts"
import { type JobHandlerTable, jobCatalogue } from "./jobs/job-catalogue.ts"
import type { WorkspaceId } from "./model/ids.ts"
import { defaultJobLaneConcurrency, type JobLaneConcurrency } from "./model/job-kinds.ts"
import type { BankLinkProvider } from "./ports/bank-link-provider.ts"
import type { BlobStore, FileTypeDetector } from "./ports/blob-store.ts"
import type { JobHandlers, JobRunner, JobRunnerLog, JobRunReport, JobRunScope } from "./ports/job-runner.ts"
import type { PaymentProvider } from "./ports/payment-provider.ts"
import type { WebhookTransport } from "./ports/webhook-transport.ts"
import { checkedFeeSchedule, defaultFeeSchedule, type FeeSchedule } from "./rules/fee-schedule.ts"
import { makeAccess } from "./services/access/access.ts"
import {
  hostedPageTokenAnswerSecrets,
  makeHostedPageTokenJobs,
  makeHostedPageTokens,
} from "./services/access/hosted-page-tokens.ts"
import { makeIdempotency, makeIdempotencyJobs } from "./services/access/idempotency.ts"
import { makeKeyLifecycle } from "./services/access/key-lifecycle.ts"
import { makeCompanies } from "./services/companies/companies.ts"
import { makeEntities } from "./services/companies/entities.ts"
import { makeFeatures } from "./services/onboardings/features.ts"
import { makeOnboardingAttachments } from "./services/onboardings/onboarding-attachments.ts"
import { makeOnboardings, personAnswerSecrets } from "./services/onboardings/onboardings.ts"
import { makePaymentBatches, makePaymentBatchJobs } from "./services/payments/payment-batches.ts"
import { makePaymentJobs, makePayments } from "./services/payments/payments.ts"
import { makeQuotes } from "./services/payments/quotes.ts"
import { makeBankAccounts } from "./services/recipients/bank-accounts.ts"
import { makeFundingAccounts } from "./services/recipients/funding-accounts.ts"
import { makePaymentMethods } from "./services/recipients/payment-methods.ts"
import { makeRecipients } from "./services/recipients/recipients.ts"
import type { Actor } from "./services/steps/actor.ts"
import { currentKeyedRequest, type KeyedRequests, makeKeyedRequests } from "./services/steps/keyed-requests.ts"
import {
  type BatchExecution,
  defaultBatchExecution,
  type EnginePorts,
  type ServicePorts,
} from "./services/steps/service-ports.ts"
import { runToPromise } from "./services/steps/transaction.ts"
import {
  defaultWebhookTimeoutMs,
  makeWebhookDeliveries,
  makeWebhookDeliveryJobs,
  noWebhookTransport,
} from "./services/webhooks/webhook-deliveries.ts"
import { makeWebhookEndpoints, webhookEndpointAnswerSecrets } from "./services/webhooks/webhook-endpoints.ts"
import { makeWebhookEvents } from "./services/webhooks/webhook-events.ts"
import { makeTestClocks } from "./services/workspaces/test-clocks.ts"
import { makeTrustedDomains } from "./services/workspaces/trusted-domains.ts"

/** One use case: any parameters, an effect that fails only with a domain error. */
type UseCase = (...args: never[]) => Effect.Effect<unknown, DomainError>

/** The use cases of one service, by name. */
type UseCases = { readonly [name: string]: UseCase }

/** The same use cases, returning promises that reject with the domain error. */
export type Promised<S extends UseCases> = {
  readonly [K in keyof S]: (...args: Parameters<S[K]>) => Promise<Effect.Effect.Success<ReturnType<S[K]>>>
}

/**
 * The registry: every service of the engine, under the name it has on the engine. Adding a
 * service is one line here; the Effect API, the Promise facade and the {@link Engine} type all
 * derive from it. A function of the ports rather than a table of constructors, so that a service
 * built from another would be written as plainly as the rest.
 */
const makeEffectApi = (ports: ServicePorts, keyedRequests: KeyedRequests) => {
  return {
    /** Workspaces, API keys, the check of a key and secret, and stored settings. */
    access: { ...makeAccess(ports), ...makeKeyLifecycle(ports) },
    companies: makeCompanies(ports),
    entities: makeEntities(ports),
    /** Entity features (the multi-currency account): enable, list, the person's submission, and the sandbox's status changes. */
    features: makeFeatures(ports),
    /** An entity's onboarding data (business details, addresses, identifiers, contact) and its persons. */
    onboardings: makeOnboardings(ports),
    onboardingAttachments: makeOnboardingAttachments(ports),
    recipients: makeRecipients(ports),
    /** The `Idempotency-Key` records of a binding: begin, complete, abandon. */
    idempotency: makeIdempotency(ports, keyedRequests, [
      webhookEndpointAnswerSecrets,
      hostedPageTokenAnswerSecrets,
      personAnswerSecrets,
    ]),
    paymentMethods: makePaymentMethods(ports),
    bankAccounts: makeBankAccounts(ports),
    fundingAccounts: makeFundingAccounts(ports),
    /** Hosted-page tokens: issue them for a recipient, a feature application or funding accounts; verify them. */
    hostedPageTokens: makeHostedPageTokens(ports),
    quotes: makeQuotes(ports),
    payments: makePayments(ports),
    /** Payment batches: create, list, fetch, process. */
    paymentBatches: makePaymentBatches(ports),
    /** The delivery log of webhook endpoints and its resends. */
    webhookDeliveries: makeWebhookDeliveries(ports),
    /** Sandbox mode: each workspace's test clock, its time and its moves. */
    testClocks: makeTestClocks(ports),
    /** The workspace's trusted return domains (hosted-page `return_url`): replace the list, read it. */
    trustedDomains: makeTrustedDomains(ports),
    /** Webhook endpoints: create (the secret shown once), get, list, update, toggle, delete. */
    webhookEndpoints: makeWebhookEndpoints(ports),
    /** The catalogue of webhook events an endpoint may subscribe to. */
    webhookEvents: makeWebhookEvents(),
  }
}

/** The engine's use cases as effects, for teams that build with Effect. */
export type EngineEffects = ReturnType<typeof makeEffectApi>

/**
 * The handler of every background job kind, built from the same ports as the use cases. A job
 * acts for no actor, so its handler is not on the engine: the engine hands these to its runner.
 */
const makeJobHandlerTable = (ports: ServicePorts): JobHandlerTable => {
  const payments = makePaymentJobs(ports)
  const paymentBatches = makePaymentBatchJobs(ports)
  const webhookDeliveries = makeWebhookDeliveryJobs(ports)
  const idempotency = makeIdempotencyJobs(ports)
  const hostedPageTokens = makeHostedPageTokenJobs(ports)
  return {
    execute_payment: (payload) => payments.execute(payload.payment_id, payload.workspace_id),
    execute_batch_payments: (payload, run) =>
      paymentBatches.runLane(payload.batch_id, payload.workspace_id, payload.payment_ids, run),
    process_batch: (payload) => paymentBatches.start(payload.batch_id, payload.workspace_id),
    expire_batch: (payload) => paymentBatches.expire(payload.batch_id, payload.workspace_id),
    deliver_webhook: (payload) =>
      webhookDeliveries.deliver(payload.delivery_id, payload.workspace_id, payload.attempt_count),
    purge_idempotency: () => idempotency.purgeExpired(),
    purge_used_hosted_page_tokens: () => hostedPageTokens.purgeUsed(),
    settle_unknown_payments: () => payments.settleUnknown(),
  }
}

/** The actor a use case was called with, when its first argument is one that names an `Idempotency-Key`. */
const keyedActorOf = (args: ReadonlyArray<unknown>) => {
  const first = args[0]
  if (typeof first !== "object" || first === null) return undefined
  const { workspaceId, idempotencyKey } = first as Partial<Actor>
  return typeof workspaceId === "string" && typeof idempotencyKey === "string"
    ? { workspaceId, idempotencyKey }
    : undefined
}

/**
 * The registry with each use case (but the idempotency service's own) run inside the keyed
 * request its actor names, so its transactions are journaled with the key. An actor naming a key
 * this engine has not claimed is a defect: the work would run unguarded.
 */
const withKeyedRequests = <E extends { readonly [S in keyof E]: UseCases }>(
  effects: E,
  keyedRequests: KeyedRequests,
): E => {
  const wrapped: Record<string, UseCases> = {}
  for (const [service, useCases] of Object.entries<UseCases>(effects)) {
    if (service === "idempotency") {
      wrapped[service] = useCases
      continue
    }
    const keyed: Record<string, UseCase> = {}
    for (const [name, useCase] of Object.entries(useCases)) {
      keyed[name] = (...args) => {
        const actor = keyedActorOf(args)
        if (actor === undefined) return useCase(...args)
        const request = keyedRequests.of(actor.workspaceId as WorkspaceId, actor.idempotencyKey)
        if (request === undefined) {
          return Effect.die(new Error(`idempotency key ${actor.idempotencyKey} was not claimed by idempotency.begin`))
        }
        return Effect.locally(useCase(...args), currentKeyedRequest, request)
      }
    }
    wrapped[service] = keyed
  }
  return wrapped as E
}

/** Every service of the registry as promises. */
export type PromisedServices<E extends { readonly [S in keyof E]: UseCases }> = {
  readonly [S in keyof E]: Promised<E[S]>
}

/**
 * The Promise facade of every service. The loop cannot be typed member by member, so its result
 * is asserted once: each use case is the registry's own, run by {@link runToPromise}, which is
 * what {@link Promised} states.
 */
const promisedServices = <E extends { readonly [S in keyof E]: UseCases }>(effects: E): PromisedServices<E> => {
  const facade: Record<string, Record<string, (...args: never[]) => Promise<unknown>>> = {}
  for (const [service, useCases] of Object.entries<UseCases>(effects)) {
    const promised: Record<string, (...args: never[]) => Promise<unknown>> = {}
    for (const [name, useCase] of Object.entries(useCases)) {
      promised[name] = (...args) => runToPromise(useCase(...args))
    }
    facade[service] = promised
  }
  return facade as PromisedServices<E>
}

/**
 * The engine: every service of the registry with its use cases as promises, the same ones as
 * effects under `effect`.
 */
export interface Engine extends PromisedServices<EngineEffects> {
  readonly effect: EngineEffects
  /**
   * Background work, run by the storage's job runner (see {@link JobRunner}): `start()` runs it
   * in the background from then on; `runDue()` runs what is due by the engine clock now and waits
   * for it (the sandbox's test clocks and tests do); `stop()` stops taking jobs and waits for the
   * one in flight (a shutdown does it before the requests in flight are done); `close()` stops it too.
   */
  readonly jobs: EngineJobs
  /** Stops the job runner, waiting for the jobs in flight, then closes the storage. */
  close(): Promise<void>
}

/**
 * What an engine is built from: its ports, and the settings of money movement. The one place
 * these options are documented; the services see them with their defaults applied.
 */
export interface EngineOptions extends EnginePorts {
  /** Quotes exchange rates, submits payments and reports them (`createSandboxPaymentProvider` of the adapters). */
  readonly paymentProvider: PaymentProvider
  /** Links funding accounts (`createSandboxBankLinker` of the adapters). */
  readonly bankLinker: BankLinkProvider
  /** Fees and FX margin; {@link defaultFeeSchedule} when absent. */
  readonly feeSchedule?: FeeSchedule
  /** Told about background jobs run, failures of the runner, and webhook circuits opening and closing. */
  readonly jobLog?: JobRunnerLog
  /**
   * Sandbox mode: every workspace gets a test clock of its own, kept in storage, that
   * `testClocks.advance` moves and that stamps its resources; false (the default) for real time
   * at no cost.
   */
  readonly testClocks?: boolean
  /** How batches run their payments; 5 at once and 20 started a second unless said otherwise. */
  readonly batchExecution?: Partial<BatchExecution>
  /**
   * Jobs run at once per process in the lanes other than `batches` (whose slots are
   * `batchExecution.concurrency`): {@link defaultJobLaneConcurrency} for those not given. Each
   * lane's jobs take only its slots, so single payments never wait for batches or deliveries.
   */
  readonly jobConcurrency?: Partial<Omit<JobLaneConcurrency, "batches">>
  /**
   * Allow `http://localhost` and `http://127.0.0.1` webhook endpoint URLs (sandbox mode, for
   * local receivers; DECISIONS "URL safety"); false by default: `https:` only.
   */
  readonly allowLocalWebhookUrls?: boolean
  /**
   * Sends webhook deliveries (`createHttpWebhookTransport` of the adapters). Without one, events
   * are still written and their deliveries logged, but every attempt fails as `network_error`.
   */
  readonly webhookTransport?: WebhookTransport
  /** How long one delivery attempt may take, connection to answer; 30 s (the spec's) unless said otherwise. */
  readonly webhookTimeoutMs?: number
  /**
   * Lanes of webhook deliveries (one endpoint's each) one workspace may have sending at once,
   * counted in storage, so across every process of it: half the `webhooks` lane's slots (at
   * least 1) unless said otherwise. A workspace's lane beyond it waits a few seconds, unsent, so
   * a workspace whose receivers do not answer cannot hold every webhook slot.
   */
  readonly webhookWorkspaceLanes?: number
  /**
   * Keeps the bytes of onboarding attachments (`createFileBlobStore` of the adapters, or your
   * own, see docs/adapters.md). Without one, the rest of the engine works; attachment uploads
   * and downloads fail as a defect naming the missing option.
   */
  readonly blobStore?: BlobStore
  /** Tells an upload's type from its first bytes (`fileTypeDetector` of the adapters); needed for uploads. */
  readonly fileTypeDetector?: FileTypeDetector
}

/** The engine's background work; the runner is the storage's, made on first use. */
export interface EngineJobs {
  start(): void
  runDue(scope?: JobRunScope): Promise<JobRunReport>
  stop(): Promise<void>
}

/** The ports the services are built from, with the engine's defaults, and the runner's lanes; a bad setting throws. */
const servicePortsOf = (
  options: EngineOptions,
): { readonly ports: ServicePorts; readonly lanes: JobLaneConcurrency } => {
  const batchExecution = { ...defaultBatchExecution, ...options.batchExecution }
  if (!Number.isSafeInteger(batchExecution.concurrency) || batchExecution.concurrency < 1) {
    throw new RangeError(
      `batchExecution.concurrency must be a whole number of at least 1, got ${batchExecution.concurrency}`,
    )
  }
  const lanes: JobLaneConcurrency = {
    ...defaultJobLaneConcurrency,
    ...options.jobConcurrency,
    batches: batchExecution.concurrency,
  }
  for (const [lane, slots] of Object.entries(lanes)) {
    if (!Number.isSafeInteger(slots) || slots < 1) {
      throw new RangeError(`jobConcurrency.${lane} must be a whole number of at least 1, got ${slots}`)
    }
  }
  if (
    options.webhookWorkspaceLanes !== undefined &&
    (!Number.isSafeInteger(options.webhookWorkspaceLanes) || options.webhookWorkspaceLanes < 1)
  ) {
    throw new RangeError(
      `webhookWorkspaceLanes must be a whole number of at least 1, got ${options.webhookWorkspaceLanes}`,
    )
  }
  if (!(batchExecution.perSecond > 0)) {
    throw new RangeError(
      `batchExecution.perSecond must be above 0 (Infinity for no limit), got ${batchExecution.perSecond}`,
    )
  }
  const ports: ServicePorts = {
    ...options,
    feeSchedule: checkedFeeSchedule(options.feeSchedule ?? defaultFeeSchedule),
    testClocks: options.testClocks ?? false,
    batchExecution,
    allowLocalWebhookUrls: options.allowLocalWebhookUrls ?? false,
    webhookTransport: options.webhookTransport ?? noWebhookTransport,
    webhookTimeoutMs: options.webhookTimeoutMs ?? defaultWebhookTimeoutMs,
    webhookWorkspaceLanes: options.webhookWorkspaceLanes ?? Math.max(1, Math.floor(lanes.webhooks / 2)),
  }
  return { ports, lanes }
}

/**
 * The handlers of the engine's background jobs, built from the same options as
 * {@link createEngine}: what its `jobs` hand the storage's runner. For a runner of your own, or
 * a test that runs one job kind now.
 *
 * @example
 * declare const options: EngineOptions
 * const handlers = createJobHandlers(options)
 * await handlers.run("purge_idempotency", {})
 */
export const createJobHandlers = (options: EngineOptions): JobHandlers =>
  jobCatalogue(makeJobHandlerTable(servicePortsOf(options).ports))

/**
 * Builds an engine from its ports. Every use case that acts for a workspace takes the
 * {@link Actor} it acts for first (those that make an actor from a key or token, the operator's
 * key commands and the catalogues act for none);
 * failures reject with a {@link DomainError} (`NotFound`, `Invalid`, `Conflict`, `Forbidden`,
 * `Unauthenticated`, `ProviderFailure`) that carries a `kind` and `errors`, never an HTTP status.
 * Background jobs are not on the engine: `jobs` runs them (see {@link createJobHandlers}).
 *
 * @example
 * const engine = createEngine({
 *   storage, clock: systemClock, ids: randomIds(), hasher: scryptHasher(), serverSecret: { read: async () => secret },
 *   paymentProvider: createSandboxPaymentProvider(), bankLinker: createSandboxBankLinker(),
 * }) // the ports from @payments-engine/adapters
 * const actor: Actor = { workspaceId: WorkspaceId.make("ws_1"), scope: "write" }
 * const company = await engine.companies.create(actor, { name: "Acme", country: "US", default_currency: "USD" })
 */
export const createEngine = (options: EngineOptions): Engine => {
  const { ports, lanes } = servicePortsOf(options)
  const keyedRequests = makeKeyedRequests()
  const effect = withKeyedRequests(makeEffectApi(ports, keyedRequests), keyedRequests)
  let runner: JobRunner | undefined
  const jobRunner = () => {
    runner ??= ports.storage.createJobRunner(jobCatalogue(makeJobHandlerTable(ports)), {
      clock: ports.clock,
      lanes,
      ...(options.jobLog === undefined ? {} : { log: options.jobLog }),
    })
    return runner
  }
  return {
    ...promisedServices(effect),
    effect,
    jobs: {
      start: () => jobRunner().start(),
      runDue: (scope) => jobRunner().runDue(scope),
      stop: async () => {
        await runner?.stop()
      },
    },
    close: async () => {
      await runner?.stop()
      await ports.storage.close()
    },
  }
}
