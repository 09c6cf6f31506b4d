import type { BankLinkProvider } from "../../ports/bank-link-provider.ts"
import type { BlobStore, FileTypeDetector } from "../../ports/blob-store.ts"
import type { Clock } from "../../ports/clock.ts"
import type { Ids } from "../../ports/ids.ts"
import type { JobRunnerLog } from "../../ports/job-runner.ts"
import type { PaymentProvider } from "../../ports/payment-provider.ts"
import type { SecretHasher } from "../../ports/secret-hasher.ts"
import type { ServerSecret } from "../../ports/server-secret.ts"
import type { Storage } from "../../ports/storage/index.ts"
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

/** What the services are built from: the engine's ports, its providers and its fee schedule. */
export interface ServicePorts extends EnginePorts {
  readonly paymentProvider: PaymentProvider
  readonly bankLinker: BankLinkProvider
  /** Fees and FX margin. */
  readonly feeSchedule: FeeSchedule
  /**
   * Sandbox mode: each workspace has a test clock of its own, kept in storage, and its resources
   * are stamped by it (see `workspaceClock`); otherwise every time is the engine's clock.
   */
  readonly testClocks: boolean
  /** How batches run their payments: at most `concurrency` at once, at most `perSecond` started a second. */
  readonly batchExecution: BatchExecution
  /**
   * Sandbox mode's webhook URLs: `http://localhost` and `http://127.0.0.1` are allowed for local
   * receivers besides `https:` URLs (DECISIONS "URL safety"); false outside sandbox mode.
   */
  readonly allowLocalWebhookUrls: boolean
  /** Sends webhook deliveries; without one, every attempt fails as `network_error`. */
  readonly webhookTransport: WebhookTransport
  /** How long one delivery attempt may take, connection to answer (30 s by the spec). */
  readonly webhookTimeoutMs: number
  /**
   * Lanes of webhook deliveries one workspace may have sending at once, across the processes of
   * a storage: a workspace whose receivers do not answer cannot hold every webhook slot.
   */
  readonly webhookWorkspaceLanes: number
  /** Told when an endpoint's circuit opens or closes (the engine's `jobLog`). */
  readonly jobLog?: JobRunnerLog | undefined
  /** Keeps the bytes of onboarding attachments; without one, attachment uploads and downloads are a defect. */
  readonly blobStore?: BlobStore | undefined
  /** Tells an upload's type from its content; without one, attachment uploads are a defect. */
  readonly fileTypeDetector?: FileTypeDetector | undefined
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
