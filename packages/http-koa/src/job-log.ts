import { type JobRunnerLog, jobKinds } from "@payments-engine/core"
import type { Logger } from "pino"
import { errorLogFields } from "./error-log-fields.ts"

/** Kinds the runner queues on a schedule (upkeep): a run that did its work says nothing worth reading. */
const scheduledKinds = new Set(jobKinds.filter((kind) => kind.schedule !== undefined).map((kind) => kind.kind))

/**
 * The service's log of background work: every run of a job at `info`, except a scheduled
 * upkeep kind's successful run (the sweep of unknown outcomes runs every minute), at `debug`;
 * retries and give-ups always at `info`, a failure of the runner itself at `error`. Fields are
 * allow-listed: the kind, the outcome and the failure's short description.
 *
 * @example
 * createServiceEngine({ ..., jobLog: jobLogTo(logger) })
 */
export const jobLogTo =
  (logger: Logger): JobRunnerLog =>
  (event) => {
    if (!("outcome" in event)) {
      logger.error({ err: errorLogFields(event.error) }, "job runner failed")
      return
    }
    const fields = { kind: event.kind, outcome: event.outcome, ...(event.error ? { error: event.error } : {}) }
    if (event.outcome === "done" && scheduledKinds.has(event.kind)) logger.debug(fields, "job run")
    else logger.info(fields, "job run")
  }
