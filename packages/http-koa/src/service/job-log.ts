import type { JobLogFields, JobRunnerLog } from "@payments-engine/core"
import { jobKinds, jobLogFieldNames } from "@payments-engine/core/effect"
import type { Logger } from "pino"
import { errorLogFields } from "../binding/error-log-fields.ts"

/** Kinds the runner queues on a schedule (upkeep): a run that did its work says nothing worth reading. */
const scheduledKinds = new Set(jobKinds.filter((kind) => kind.schedule !== undefined).map((kind) => kind.kind))

/** A run's payload fields, those of {@link JobLogFields} only, whatever else a runner put there. */
const pickJobFields = (fields: JobLogFields | undefined): JobLogFields =>
  fields === undefined
    ? {}
    : Object.fromEntries(jobLogFieldNames.flatMap((name) => (fields[name] === undefined ? [] : [[name, fields[name]]])))

const batchMessages = {
  started: "batch started",
  progress: "batch progress",
  completed: "batch completed",
} as const

/**
 * The service's log of background work: every run of a job at `info`, except a scheduled
 * upkeep kind's successful run (the sweep of unknown outcomes runs every minute), at `debug`;
 * retries and give-ups always at `info`, a failure of the runner itself at `error`; a batch's start,
 * its progress every `batchProgressEvery` payments and its end at `info`; a webhook endpoint's
 * circuit opening or closing, and its disabling by the engine, at `warn`; a payment's creation and outcome at `debug`. Fields are allow-listed: a run's kind, outcome, attempt,
 * `duration_ms`, the ids its payload names (`workspace_id`, `company_id`, `batch_id`,
 * `payment_id`, `delivery_id`), `payment_count` of a batch lane and the failure's short description; a batch's
 * ids (with `company_id`), status, counts and, at its end, `duration_ms`; the circuit's ids,
 * failures in a row and until when it is open.
 *
 * @example
 * createServiceEngine({ storage, serverSecret: { read: async () => secret }, jobLog: jobLogTo(logger) })
 */
export const jobLogTo =
  (logger: Logger): JobRunnerLog =>
  (event) => {
    if ("circuit" in event) {
      const fields = {
        workspace_id: event.workspaceId,
        endpoint_id: event.endpointId,
        consecutive_failures: event.consecutiveFailures,
        circuit_open_until: event.until,
      }
      logger.warn(fields, `webhook endpoint ${event.circuit === "disabled" ? "disabled" : `circuit ${event.circuit}`}`)
      return
    }
    if ("payment" in event) {
      const fields = {
        workspace_id: event.workspaceId,
        company_id: event.companyId,
        payment_id: event.paymentId,
        ...(event.durationMs === undefined ? {} : { duration_ms: event.durationMs }),
      }
      // The job run that settled it is logged at info already; this is for who follows one payment.
      logger.debug(fields, `payment ${event.payment}`)
      return
    }
    if ("batch" in event) {
      const fields = {
        workspace_id: event.workspaceId,
        company_id: event.companyId,
        batch_id: event.batchId,
        status: event.status,
        total: event.total,
        succeeded: event.succeeded,
        failed: event.failed,
        ...(event.durationMs === undefined ? {} : { duration_ms: event.durationMs }),
      }
      logger.info(fields, batchMessages[event.batch])
      return
    }
    if (!("outcome" in event)) {
      logger.error({ err: errorLogFields(event.error) }, "job runner failed")
      return
    }
    const fields = {
      kind: event.kind,
      outcome: event.outcome,
      ...(event.attempt === undefined ? {} : { attempt: event.attempt }),
      ...(event.durationMs === undefined ? {} : { duration_ms: event.durationMs }),
      ...pickJobFields(event.fields),
      ...(event.error ? { error: event.error } : {}),
    }
    if (event.outcome === "done" && scheduledKinds.has(event.kind)) logger.debug(fields, "job run")
    else logger.info(fields, "job run")
  }
