import {
  createFileBlobStore,
  createHttpWebhookTransport,
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  fileTypeDetector,
  randomIds,
  scryptHasher,
  systemClock,
} from "@payments-engine/adapters"
import {
  type BankLinkProvider,
  type BatchExecution,
  type BlobStore,
  type Clock,
  createEngine,
  type Engine,
  type EngineOptions,
  type FeeSchedule,
  type JobRunnerLog,
  type PaymentProvider,
  type SecretHasher,
  type ServerSecret,
  type Storage,
} from "@payments-engine/core"

/** Options of {@link createServiceEngine}. */
export interface ServiceEngineOptions {
  readonly storage: Storage
  /**
   * Keys the idempotency fingerprints: the service passes its JWT secret (the engine derives a
   * key of its own from it), so nothing derived from a request body can be matched without it.
   */
  readonly serverSecret: ServerSecret
  /** The system clock by default. */
  readonly clock?: Clock
  /** Sandbox mode: a test clock per workspace, kept in storage, on top of `clock`. */
  readonly testClocks?: boolean
  /** scrypt with its default cost by default. */
  readonly hasher?: SecretHasher
  /** The sandbox payment provider by default: the only one there is so far. */
  readonly paymentProvider?: PaymentProvider
  /** The sandbox bank linker by default: the only one there is so far. */
  readonly bankLinker?: BankLinkProvider
  /** The core's default fee schedule when absent. */
  readonly feeSchedule?: FeeSchedule
  /** Told about background jobs run and about failures of the job runner. */
  readonly jobLog?: JobRunnerLog
  /** How batches run their payments; the engine's defaults (5 at once, 20 a second) when absent. */
  readonly batchExecution?: Partial<BatchExecution>
  /** Jobs at once per process in the payments, webhooks and housekeeping lanes; the engine's defaults when absent. */
  readonly jobConcurrency?: EngineOptions["jobConcurrency"]
  /** Webhook delivery jobs one workspace may have sending at once; half the webhook slots when absent. */
  readonly webhookWorkspaceLanes?: number
  /** Sandbox mode: webhook endpoints may be `http://localhost` or `http://127.0.0.1` too; false by default. */
  readonly allowLocalWebhookUrls?: boolean
  /** How long one webhook delivery attempt may take; 30 s unless said otherwise (tests shorten it). */
  readonly webhookTimeoutMs?: number
  /**
   * Where onboarding attachments' bytes go: a filesystem store on `attachmentsDirectory` unless
   * a store is given. With neither, attachment uploads and downloads fail (a defect, 500).
   */
  readonly blobStore?: BlobStore
  /** The directory of the filesystem blob store (`PAYMENTS_ATTACHMENTS_DIR`), when no `blobStore` is given. */
  readonly attachmentsDirectory?: string
}

/**
 * The engine the service and the `payments-engine` command run, over a storage: the one place
 * that picks the ports (clock, time-ordered random ids on that clock, scrypt, the sandbox
 * payment provider and bank linker, which are the only ones so far, in every mode, attachments on
 * the filesystem and their type told by `file-type`).
 *
 * @example
 * const engine = createServiceEngine({
 *   storage: await openStorageFromUrl(config.databaseUrl),
 *   serverSecret: { read: async () => config.jwtSecret! },
 * })
 */
export const createServiceEngine = (options: ServiceEngineOptions): Engine => {
  const clock = options.clock ?? systemClock
  return createEngine({
    storage: options.storage,
    clock,
    ids: randomIds({ clock }),
    hasher: options.hasher ?? scryptHasher(),
    serverSecret: options.serverSecret,
    paymentProvider: options.paymentProvider ?? createSandboxPaymentProvider(),
    bankLinker: options.bankLinker ?? createSandboxBankLinker(),
    ...(options.feeSchedule === undefined ? {} : { feeSchedule: options.feeSchedule }),
    ...(options.jobLog === undefined ? {} : { jobLog: options.jobLog }),
    testClocks: options.testClocks ?? false,
    ...(options.batchExecution === undefined ? {} : { batchExecution: options.batchExecution }),
    ...(options.jobConcurrency === undefined ? {} : { jobConcurrency: options.jobConcurrency }),
    ...(options.webhookWorkspaceLanes === undefined ? {} : { webhookWorkspaceLanes: options.webhookWorkspaceLanes }),
    allowLocalWebhookUrls: options.allowLocalWebhookUrls ?? false,
    webhookTransport: createHttpWebhookTransport({ allowLoopback: options.allowLocalWebhookUrls ?? false }),
    ...(options.webhookTimeoutMs === undefined ? {} : { webhookTimeoutMs: options.webhookTimeoutMs }),
    ...blobStoreOf(options),
    fileTypeDetector: fileTypeDetector(),
  })
}

const blobStoreOf = (options: ServiceEngineOptions): { blobStore?: BlobStore } => {
  if (options.blobStore !== undefined) return { blobStore: options.blobStore }
  if (options.attachmentsDirectory !== undefined) {
    return { blobStore: createFileBlobStore({ directory: options.attachmentsDirectory }) }
  }
  return {}
}
