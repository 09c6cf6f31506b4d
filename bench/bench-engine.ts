/**
 * What the benchmarks run on: an engine over a storage, on the system clock, with the sandbox
 * providers; and a runner of jobs that do nothing, the job engine's own limit.
 */
import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  randomIds,
  scryptHasher,
  systemClock,
} from "@payments-engine/adapters"
import {
  type BatchExecution,
  createEngine,
  defaultBatchExecution,
  type Engine,
  type JobRunner,
  type Storage,
  type WebhookTransport,
} from "@payments-engine/core"

/** The kind of the empty jobs {@link noopRunner} runs. */
export const noopKind = "bench_noop"

/** An engine over `storage`; its sandbox provider takes `latencyMs` a call; it delivers webhooks through `webhookTransport` to local URLs. */
export const benchEngine = (
  storage: Storage,
  options: {
    readonly latencyMs?: number
    readonly batchExecution?: Partial<BatchExecution>
    readonly webhookTransport?: WebhookTransport
  } = {},
): Engine =>
  createEngine({
    storage,
    clock: systemClock,
    ids: randomIds(),
    hasher: scryptHasher(),
    serverSecret: { read: async () => "bench-server-secret-0123456789abcdefgh" },
    paymentProvider: createSandboxPaymentProvider({ latencyMs: options.latencyMs ?? 0 }),
    bankLinker: createSandboxBankLinker(),
    ...(options.batchExecution === undefined ? {} : { batchExecution: options.batchExecution }),
    ...(options.webhookTransport === undefined
      ? {}
      : { webhookTransport: options.webhookTransport, allowLocalWebhookUrls: true }),
  })

/** A runner of {@link noopKind} jobs, as many at once as the engine runs batch payments. */
export const noopRunner = (storage: Storage): JobRunner =>
  storage.createJobRunner(
    { kinds: [{ kind: noopKind }], run: async () => {} },
    { clock: systemClock, lanes: { default: defaultBatchExecution.concurrency } },
  )
