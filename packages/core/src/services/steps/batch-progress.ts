import { Effect } from "effect"
import { batchMachine } from "../../machines/batch-machine.ts"
import { decide } from "../../machines/stored-machine.ts"
import type { WorkspaceId } from "../../model/ids.ts"
import type { Clock } from "../../ports/clock.ts"
import type { PaymentBatchRecord, Repositories } from "../../ports/storage/index.ts"
import { appendEvents, paymentBatchEventPayload } from "./outbox.ts"
import type { ServicePorts } from "./service-ports.ts"
import type { Lifted } from "./transaction.ts"

/** The batch machine's context: the batch's counts. */
export const batchCounts = (batch: PaymentBatchRecord) => ({
  total: batch.total_count,
  succeeded: batch.succeeded_count,
  failed: batch.failed_count,
})

/**
 * Ends a processing batch whose payments all have an outcome, as the batch machine decides:
 * its terminal status and `completed_at` by compare-and-set, and its one
 * `PaymentBatchCompletedEvent`. A batch with payments still running is left as it is; of two
 * transactions that count the last payments, the compare-and-set lets one end it.
 */
export const finishBatchIfDone = (
  ports: Pick<ServicePorts, "ids" | "clock">,
  clock: Clock,
  tx: Lifted<Repositories>,
  workspaceId: WorkspaceId,
  batch: PaymentBatchRecord,
) =>
  Effect.gen(function* () {
    const decision = decide(batchMachine, batch, { type: "finish" }, batchCounts(batch))
    if (decision === undefined) return batch
    const now = clock.now()
    const at = now.toISOString()
    const ended = yield* tx.paymentBatches.compareAndSetStatus(batch.id, batch.status, decision.status, {
      completed_at: at,
      updated_at: at,
    })
    if (ended === undefined) return batch
    for (const action of decision.actions) {
      if (action.type !== "emit" || action.event !== "PaymentBatchCompletedEvent") {
        return yield* Effect.dieMessage(`the batch machine asked for ${JSON.stringify(action)} on finishing`)
      }
      yield* appendEvents(
        ports,
        tx,
        [
          {
            workspaceId,
            companyId: ended.company_id,
            payload: paymentBatchEventPayload({ now, companyId: ended.company_id, batchId: ended.id }),
          },
        ],
        clock,
      )
    }
    return ended
  })
