import { and, setup } from "xstate"
import type { BatchStatus } from "../model/types/payment-batch.ts"
import { emitOnly, machineActions, type StoredMachine } from "./stored-machine.ts"

/** Payments one batch may hold (spec: adding payments to a batch and processing it). */
export const maxBatchPayments = 500

/** How long a batch may stay `building` before the expiry job expires it: 7 days. */
export const batchLifetimeMs = 7 * 24 * 60 * 60 * 1000

/** What can happen to a batch. */
export type BatchEvent = { readonly type: "process" } | { readonly type: "expire" } | { readonly type: "finish" }

/**
 * What the batch machine reads besides the status: its counts. `process` needs 1 to 500
 * payments; `finish` needs every payment finished, and its counts decide the terminal status.
 */
export interface BatchContext {
  readonly total: number
  readonly succeeded: number
  readonly failed: number
}

/**
 * The batch life cycle, version 1 (the spec's table): building -> processing on process_batch,
 * queuing the job that starts its payments; building -> expired by the expiry job queued at
 * creation, due when the batch is seven days old; processing -> completed, completed_with_failures
 * or failed when its last payment finishes, with one `PaymentBatchCompletedEvent`. Used purely
 * through {@link decide} and {@link begin}.
 */
const batchMachineV1 = setup({
  types: { events: {} as BatchEvent, context: {} as BatchContext, input: {} as BatchContext },
  actions: {
    emit: emitOnly<"PaymentBatchCompletedEvent">(),
    enqueue: machineActions.enqueue,
  },
  guards: {
    processable: ({ context }) => context.total >= 1 && context.total <= maxBatchPayments,
    allFinished: ({ context }) => context.succeeded + context.failed === context.total,
    noneFailed: ({ context }) => context.failed === 0,
    noneSucceeded: ({ context }) => context.succeeded === 0,
  },
}).createMachine({
  id: "payment_batch",
  initial: "new",
  context: ({ input }) => input,
  states: {
    new: {
      always: {
        target: "building",
        actions: { type: "enqueue", params: { job: "expire_batch", delayMs: batchLifetimeMs } },
      },
    },
    building: {
      on: {
        process: {
          guard: "processable",
          target: "processing",
          actions: { type: "enqueue", params: { job: "process_batch" } },
        },
        expire: "expired",
      },
    },
    processing: {
      on: {
        finish: [
          {
            guard: and(["allFinished", "noneFailed"]),
            target: "completed",
            actions: { type: "emit", params: { event: "PaymentBatchCompletedEvent" } },
          },
          {
            guard: and(["allFinished", "noneSucceeded"]),
            target: "failed",
            actions: { type: "emit", params: { event: "PaymentBatchCompletedEvent" } },
          },
          {
            guard: "allFinished",
            target: "completed_with_failures",
            actions: { type: "emit", params: { event: "PaymentBatchCompletedEvent" } },
          },
        ],
      },
    },
    completed: { type: "final" },
    completed_with_failures: { type: "final" },
    failed: { type: "final" },
    expired: { type: "final" },
  },
})

/** Stored with each batch, so a later machine can still read rows written by this one. */
export const batchMachineVersion = 1

/** The batch machine of every stored version. */
export const batchMachine: StoredMachine<BatchStatus, BatchEvent, BatchContext> = {
  resource: "payment batch",
  version: batchMachineVersion,
  versions: { 1: batchMachineV1 },
}
