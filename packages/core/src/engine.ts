import {
  makeEffectApi,
  makeJobHandlerTable,
  promisedServices,
  rememberEffects,
  withKeyedRequests,
  withUseCaseSpans,
} from "./engine-effects.ts"
import type { EngineServices } from "./engine-services.ts"
import { jobCatalogue } from "./jobs/job-catalogue.ts"
import { defaultJobLaneConcurrency } from "./model/job-kinds.ts"
import type { JobLaneConcurrency } from "./model/types/job-kinds.ts"
import type { BankLinkProvider } from "./ports/bank-link-provider.ts"
import type { BlobStore, FileTypeDetector } from "./ports/blob-store.ts"
import { endpointChangesOf } from "./ports/endpoint-changes.ts"
import type { JobHandlers, JobRunner, JobRunnerLog, JobRunReport, JobRunScope } from "./ports/job-runner.ts"
import type { PaymentProvider } from "./ports/payment-provider.ts"
import type { Tracing } from "./ports/tracing.ts"
import type { WebhookTransport } from "./ports/webhook-transport.ts"
import { checkedFeeSchedule, defaultFeeSchedule, type FeeSchedule } from "./rules/fee-schedule.ts"
import { makeKeyedRequests } from "./services/steps/keyed-requests.ts"
import {
  type BatchExecution,
  defaultBatchExecution,
  type EnginePorts,
  type ServicePorts,
} from "./services/steps/service-ports.ts"
import { defaultWebhookTimeoutMs, noWebhookTransport } from "./services/webhooks/webhook-deliveries.ts"

/*
 * The engine as a caller of its Promise facade builds it. This module's declarations name no
 * effect type (the Effect API is built in ./engine-effects.ts), so that the main entry's do not.
 */

/**
 * The engine: every service with its use cases as promises ({@link EngineServices}); the same
 * ones as effects are `effectsOf(engine)` of the `/effect` entry.
 */
export interface Engine extends EngineServices {
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
  /**
   * Where spans go (`openTelemetryTracing` of the adapters): one per use case, storage
   * transaction or read, provider call, job run and webhook attempt, each with the ids it acts
   * on. A use case's span is a child of the context it is called in; a job's run continues the
   * trace of what queued it. Without one (the default), no span is made.
   */
  readonly tracing?: Tracing
}

/** The engine's background work; the runner is the storage's, made on first use. */
export interface EngineJobs {
  start(): void
  runDue(scope?: JobRunScope): Promise<JobRunReport>
  stop(): Promise<void>
  /** Whether background work runs: `start()` was called and no `stop()` or `close()` (a runner does not start again once stopped). */
  running(): boolean
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
    endpointChanges: endpointChangesOf(options.storage),
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
export const createJobHandlers = (options: EngineOptions): JobHandlers => {
  const { ports } = servicePortsOf(options)
  return jobCatalogue(makeJobHandlerTable(ports), ports.tracing)
}

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
  const keyed = withKeyedRequests(makeEffectApi(ports, keyedRequests), keyedRequests)
  const effect = ports.tracing === undefined ? keyed : withUseCaseSpans(keyed, ports.tracing)
  let runner: JobRunner | undefined
  // A runner stopped does not start again, so neither does `running()` turn true again.
  let started = false
  let stopped = false
  const jobRunner = () => {
    runner ??= ports.storage.createJobRunner(jobCatalogue(makeJobHandlerTable(ports), ports.tracing), {
      clock: ports.clock,
      lanes,
      ...(options.jobLog === undefined ? {} : { log: options.jobLog }),
    })
    return runner
  }
  const engine: Engine = {
    ...promisedServices(effect),
    jobs: {
      start: () => {
        jobRunner().start()
        started = true
      },
      runDue: (scope) => jobRunner().runDue(scope),
      stop: async () => {
        stopped = true
        await runner?.stop()
      },
      running: () => started && !stopped,
    },
    close: async () => {
      stopped = true
      await runner?.stop()
      await ports.storage.close()
    },
  }
  rememberEffects(engine, effect)
  return engine
}
