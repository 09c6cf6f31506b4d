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
    >,
    Partial<Pick<EngineOptions, "clock" | "hasher" | "paymentProvider" | "bankLinker">> {
  /** The directory of the filesystem blob store (`PAYMENTS_ATTACHMENTS_DIR`), when no `blobStore` is given. */
  readonly attachmentsDirectory?: string
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
