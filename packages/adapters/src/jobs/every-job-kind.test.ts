import {
  JobId,
  type JobKindName,
  PaymentBatchId,
  PaymentId,
  WebhookDeliveryId,
  WebhookRecoveryId,
  WorkspaceId,
} from "@payments-engine/core"
import { type JobHandlerTable, type JobPayload, jobCatalogue } from "@payments-engine/core/effect"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { TestClock } from "../clock/test-clock.ts"
import type { KyselyStorage } from "../storage/kysely-storage.ts"
import { openTestPostgres } from "../testing/test-postgres.ts"
import { openTestSqlite } from "../testing/test-sqlite.ts"

const workspace_id = WorkspaceId.make("ws_kinds")

/** One payload of every kind: a kind added to core without one here does not compile. */
const payloads: { readonly [K in JobKindName]: JobPayload<K> } = {
  execute_payment: { payment_id: PaymentId.make("pay_1"), workspace_id },
  execute_batch_payments: {
    batch_id: PaymentBatchId.make("pb_1"),
    workspace_id,
    payment_ids: [PaymentId.make("pay_2"), PaymentId.make("pay_3")],
  },
  process_batch: { batch_id: PaymentBatchId.make("pb_2"), workspace_id },
  expire_batch: { batch_id: PaymentBatchId.make("pb_3"), workspace_id },
  deliver_webhook: { delivery_id: WebhookDeliveryId.make("whd_1"), workspace_id, attempt_count: 2 },
  recover_webhook_deliveries: { recovery_id: WebhookRecoveryId.make("wer_1"), workspace_id },
  purge_idempotency: {},
  purge_used_hosted_page_tokens: {},
  settle_unknown_payments: {},
}

/** Handlers that only note which kind ran with which payload. */
const noting = (heard: Array<readonly [string, unknown]>): JobHandlerTable => {
  const note = (kind: JobKindName) => (payload: unknown) =>
    Effect.sync(() => {
      heard.push([kind, payload])
    })
  return {
    execute_payment: note("execute_payment"),
    execute_batch_payments: note("execute_batch_payments"),
    process_batch: note("process_batch"),
    expire_batch: note("expire_batch"),
    deliver_webhook: note("deliver_webhook"),
    recover_webhook_deliveries: note("recover_webhook_deliveries"),
    purge_idempotency: note("purge_idempotency"),
    purge_used_hosted_page_tokens: note("purge_used_hosted_page_tokens"),
    settle_unknown_payments: note("settle_unknown_payments"),
  }
}

/** Queues one job of every kind, due now, and has the storage's own runner run what is due. */
const runOneOfEach = async (storage: KyselyStorage) => {
  const clock = new TestClock(new Date("2030-01-01T10:00:00.000Z"))
  const now = clock.now().toISOString()
  await storage.transaction(async (tx) => {
    for (const [kind, payload] of Object.entries(payloads)) {
      await tx.jobs.enqueue({
        id: JobId.make(`job_${kind}`),
        kind,
        payload: JSON.stringify(payload),
        run_at: now,
        key: null,
        max_attempts: 1,
        created_at: now,
        workspace_id: null,
      })
    }
  })
  const heard: Array<readonly [string, unknown]> = []
  const runner = storage.createJobRunner(jobCatalogue(noting(heard)), { clock })
  const report = await runner.runDue()
  await runner.stop()
  return { report, heard: Object.fromEntries(heard) }
}

const sqlite = openTestSqlite({ file: true })
const postgres = openTestPostgres()
afterAll(async () => {
  await sqlite.close()
  await postgres.close()
})

const kindCount = Object.keys(payloads).length

describe("every job kind reaches its handler", () => {
  it("on the embedded runner, over a SQLite file", async () => {
    const { report, heard } = await runOneOfEach(await sqlite.factory())
    expect(heard).toEqual(payloads)
    expect(report).toEqual({ ran: kindCount, failed: 0 })
  })

  it.skipIf(postgres.kind !== "server")("on graphile-worker, over Postgres", async () => {
    const { report, heard } = await runOneOfEach(await postgres.factory())
    expect(heard).toEqual(payloads)
    expect(report).toEqual({ ran: kindCount, failed: 0 })
  })
})
