import { type JobRunnerLog, jobKinds } from "@payments-engine/core"
import type { Logger } from "pino"
import { errorLogFields } from "../binding/error-log-fields.ts"

/** Kinds the runner queues on a schedule (upkeep): a run that did its work says nothing worth reading. */
const scheduledKinds = new Set(jobKinds.filter((kind) => kind.schedule !== undefined).map((kind) => kind.kind))

/**
 * The service's log of background work: every run of a job at `info`, except a scheduled
 * upkeep kind's successful run (the sweep of unknown outcomes runs every minute), at `debug`;
 * retries and give-ups always at `info`, a failure of the runner itself at `error`; a webhook
 * endpoint's circuit opening or closing at `warn`, with the workspace and endpoint ids, the failures
 * in a row and until when it is open. Fields are allow-listed: the kind, the outcome and the
 * failure's short description, or those of the circuit.
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
      logger.warn(
        fields,
        event.circuit === "opened" ? "webhook endpoint circuit opened" : "webhook endpoint circuit closed",
      )
      return
    }
    if (!("outcome" in event)) {
      logger.error({ err: errorLogFields(event.error) }, "job runner failed")
      return
    }
    const fields = { kind: event.kind, outcome: event.outcome, ...(event.error ? { error: event.error } : {}) }
    if (event.outcome === "done" && scheduledKinds.has(event.kind)) logger.debug(fields, "job run")
    else logger.info(fields, "job run")
  }
