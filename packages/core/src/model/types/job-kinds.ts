// The types of `model/job-kinds.ts`, written out (docs/decisions.md, "Public types").

/**
 * The lanes background work runs in, each with slots of its own (`JobRunnerOptions.lanes`): a
 * payment's execution never waits for a webhook delivery, a batch's lanes never take the slots
 * of single payments, and upkeep never takes either's.
 */
export type JobLaneName = "payments" | "batches" | "webhooks" | "housekeeping"

/** Jobs run at once in each lane, per process. */
export type JobLaneConcurrency = { readonly [L in JobLaneName]: number }

/** The name of a kind of background job, e.g. "execute_payment". */
export type JobKindName =
  | "execute_payment"
  | "execute_batch_payments"
  | "process_batch"
  | "expire_batch"
  | "deliver_webhook"
  | "recover_webhook_deliveries"
  | "purge_idempotency"
  | "purge_used_hosted_page_tokens"
  | "settle_unknown_payments"
