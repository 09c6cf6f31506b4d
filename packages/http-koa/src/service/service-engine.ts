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
import { type BlobStore, createEngine, type Engine, type EngineOptions } from "@payments-engine/core"
import type { ServiceMetrics } from "./metrics.ts"

/**
 * Options of {@link createServiceEngine}: the {@link EngineOptions} the service passes on as they
 * are (documented there), the ports it otherwise picks itself, and where attachments go.
 */
export interface ServiceEngineOptions
  extends Pick<
      EngineOptions,
      | "storage"
      | "serverSecret"
      | "feeSchedule"
      | "jobLog"
      | "testClocks"
      | "batchExecution"
      | "jobConcurrency"
      | "webhookWorkspaceLanes"
      | "allowLocalWebhookUrls"
      | "webhookTimeoutMs"
      | "blobStore"
      | "tracing"
    >,
    Partial<Pick<EngineOptions, "clock" | "hasher" | "paymentProvider" | "bankLinker">> {
  /** The directory of the filesystem blob store (`PAYMENTS_ATTACHMENTS_DIR`), when no `blobStore` is given. */
  readonly attachmentsDirectory?: string
  /** Times the provider's, the bank linker's and the webhook transport's calls, and counts what the job log is told. */
  readonly metrics?: ServiceMetrics
}

/**
 * The engine the service and the `payments-engine` command run, over a storage: the one place
 * that picks the ports. Unless given: the system clock, time-ordered random ids on that clock,
 * scrypt, the sandbox payment provider and bank linker (the only ones so far, in every mode), the
 * undici webhook transport (allowing loopback addresses exactly when `allowLocalWebhookUrls`),
 * attachments in a filesystem store on `attachmentsDirectory`, their type told by `file-type`.
 * Everything else is as {@link EngineOptions} says.
 *
 * @example
 * const engine = createServiceEngine({
 *   storage: await openStorageFromUrl(config.databaseUrl),
 *   serverSecret: { read: async () => config.jwtSecret! },
 * })
 */
export const createServiceEngine = (options: ServiceEngineOptions): Engine => {
  const clock = options.clock ?? systemClock
  const metrics = options.metrics
  const paymentProvider = options.paymentProvider ?? createSandboxPaymentProvider()
  const bankLinker = options.bankLinker ?? createSandboxBankLinker()
  const webhookTransport = createHttpWebhookTransport({ allowLoopback: options.allowLocalWebhookUrls ?? false })
  const jobLog = options.jobLog
  return createEngine({
    storage: options.storage,
    clock,
    ids: randomIds({ clock }),
    hasher: options.hasher ?? scryptHasher(),
    serverSecret: options.serverSecret,
    paymentProvider: metrics === undefined ? paymentProvider : metrics.paymentProvider(paymentProvider),
    bankLinker: metrics === undefined ? bankLinker : metrics.bankLinker(bankLinker),
    ...(options.feeSchedule === undefined ? {} : { feeSchedule: options.feeSchedule }),
    ...(metrics === undefined
      ? jobLog === undefined
        ? {}
        : { jobLog }
      : {
          jobLog: (event) => {
            metrics.jobLog(event)
            jobLog?.(event)
          },
        }),
    testClocks: options.testClocks ?? false,
    ...(options.batchExecution === undefined ? {} : { batchExecution: options.batchExecution }),
    ...(options.jobConcurrency === undefined ? {} : { jobConcurrency: options.jobConcurrency }),
    ...(options.webhookWorkspaceLanes === undefined ? {} : { webhookWorkspaceLanes: options.webhookWorkspaceLanes }),
    allowLocalWebhookUrls: options.allowLocalWebhookUrls ?? false,
    webhookTransport: metrics === undefined ? webhookTransport : metrics.webhookTransport(webhookTransport),
    ...(options.webhookTimeoutMs === undefined ? {} : { webhookTimeoutMs: options.webhookTimeoutMs }),
    ...blobStoreOf(options),
    fileTypeDetector: fileTypeDetector(),
    ...(options.tracing === undefined ? {} : { tracing: options.tracing }),
  })
}

const blobStoreOf = (options: ServiceEngineOptions): { blobStore?: BlobStore } => {
  if (options.blobStore !== undefined) return { blobStore: options.blobStore }
  if (options.attachmentsDirectory !== undefined) {
    return { blobStore: createFileBlobStore({ directory: options.attachmentsDirectory }) }
  }
  return {}
}
