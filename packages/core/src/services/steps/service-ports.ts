import type { BankLinkProvider } from "../../ports/bank-link-provider.ts"
import type { BlobStore, FileTypeDetector } from "../../ports/blob-store.ts"
import type { Clock } from "../../ports/clock.ts"
import type { EndpointChanges } from "../../ports/endpoint-changes.ts"
import type { Ids } from "../../ports/ids.ts"
import type { JobRunnerLog } from "../../ports/job-runner.ts"
import type { PaymentProvider } from "../../ports/payment-provider.ts"
import type { SecretHasher } from "../../ports/secret-hasher.ts"
import type { ServerSecret } from "../../ports/server-secret.ts"
import type { Storage } from "../../ports/storage/index.ts"
import type { Tracing } from "../../ports/tracing.ts"
import type { WebhookTransport } from "../../ports/webhook-transport.ts"
import type { FeeSchedule } from "../../rules/fee-schedule.ts"

/** The ports an engine is built from. */
export interface EnginePorts {
  readonly storage: Storage
  readonly clock: Clock
  readonly ids: Ids
  readonly hasher: SecretHasher
  /** Keys the fingerprints of idempotency records (HMAC-SHA-256 under a key derived from it). */
  readonly serverSecret: ServerSecret
}

/**
 * What the services are built from: the engine's options (`EngineOptions` in engine.ts, where
 * each is documented) with the engine's defaults applied.
 */
export interface ServicePorts extends EnginePorts {
  readonly paymentProvider: PaymentProvider
  readonly bankLinker: BankLinkProvider
  readonly feeSchedule: FeeSchedule
  readonly testClocks: boolean
  readonly batchExecution: BatchExecution
  readonly allowLocalWebhookUrls: boolean
  readonly webhookTransport: WebhookTransport
  readonly webhookTimeoutMs: number
  readonly webhookWorkspaceLanes: number
  /** How lanes learn of an endpoint deactivated or deleted; undefined: they ask before each send. */
  readonly endpointChanges: EndpointChanges | undefined
  readonly jobLog?: JobRunnerLog | undefined
  readonly blobStore?: BlobStore | undefined
  readonly fileTypeDetector?: FileTypeDetector | undefined
  readonly tracing?: Tracing | undefined
}

/**
 * How a batch runs its payments (DECISIONS, Execution: 5 in flight, 20 a second by default).
 * `perSecond: Infinity` lifts the rate limit (benchmarks, and tests on a stopped test clock).
 */
export interface BatchExecution {
  readonly concurrency: number
  readonly perSecond: number
}

export const defaultBatchExecution: BatchExecution = { concurrency: 5, perSecond: 20 }

/** The clock's now as a storage timestamp. */
export const nowIso = (ports: Pick<EnginePorts, "clock">): string => ports.clock.now().toISOString()
