import { Effect, Either, type ParseResult, Schema } from "effect"
import type { DomainError } from "../errors.ts"
import {
  type JobKindDefinition,
  type JobKindName,
  type JobLaneName,
  type JobPayload,
  jobKindDefinitions,
  jobKindNames,
} from "../model/job-kinds.ts"
import type { JobHandlers, JobKind, JobLogFields, JobRun } from "../ports/job-runner.ts"
import type { SpanAttributes, Tracing } from "../ports/tracing.ts"
import { traceContextOf } from "../services/steps/job-queue.ts"
import { spanned } from "../services/steps/trace-spans.ts"
import { runToPromise } from "../services/steps/transaction.ts"

/** The kinds as runners see them, with their lanes and schedules: every kind of `jobKindDefinitions`. */
export const jobKinds: ReadonlyArray<JobKind & { readonly lane: JobLaneName }> = jobKindNames.map((kind) => {
  const { lane, ...rest } = jobKindDefinitions[kind]
  return "schedule" in rest ? { kind, lane, schedule: rest.schedule } : { kind, lane }
})

/**
 * The handler of every kind, each given its kind's decoded payload and the run it is: a kind
 * without one is a compile error, so nothing is queued that no runner can carry out.
 */
export type JobHandlerTable = {
  readonly [K in JobKindName]: (payload: JobPayload<K>, run: JobRun) => Effect.Effect<unknown, DomainError>
}

const loggedIds = ["workspace_id", "company_id", "batch_id", "payment_id", "delivery_id"] as const

/** Every field a job's log line may carry of its payload: the names of {@link JobLogFields}. */
export const jobLogFieldNames: ReadonlyArray<keyof JobLogFields> = [...loggedIds, "payment_count"]

/** What an id the engine made looks like; anything else in a payload is not logged. */
const idShape = /^[A-Za-z0-9_-]{1,100}$/

/**
 * What a job's log line may show of its payload: the ids it acts on (workspace, company, batch,
 * payment, delivery) and, for a batch lane, how many payments it carries. Read from the payload as it is,
 * undecoded, so a runner can call it for any job; anything else in it is left out.
 *
 * @example
 * jobLogFields({ batch_id: "pb_1", workspace_id: "ws_1", payment_ids: ["pay_1", "pay_2"] })
 * // { workspace_id: "ws_1", batch_id: "pb_1", payment_count: 2 }
 */
export const jobLogFields = (payload: unknown): JobLogFields => {
  if (typeof payload !== "object" || payload === null) return {}
  const record = payload as Record<string, unknown>
  const fields: Record<string, string | number> = {}
  for (const name of loggedIds) {
    const value = record[name]
    if (typeof value === "string" && idShape.test(value)) fields[name] = value
  }
  if (Array.isArray(record.payment_ids)) fields.payment_count = record.payment_ids.length
  return fields
}

/** A payload that does not decode is a defect of whoever queued it: retrying cannot help. */
export class UndecodableJob extends Error {
  override readonly name = "UndecodableJob"
}

const isKind = (kind: string): kind is JobKindName => Object.hasOwn(jobKindDefinitions, kind)

const decoders = Object.fromEntries(
  jobKindNames.map((kind) => {
    const definition: JobKindDefinition = jobKindDefinitions[kind]
    return [kind, Schema.decodeUnknownEither(definition.payload)]
  }),
) as Record<JobKindName, (payload: unknown) => Either.Either<unknown, ParseResult.ParseError>>

/**
 * The job catalogue as runners see it: the kinds, and `run`, which decodes a payload with its
 * kind's schema and runs the kind's handler, in a span when `tracing` is given (under the trace
 * context its payload carries, see `enqueueJob`). A runner calls nothing else of the engine.
 *
 * @example
 * declare const handlerTable: JobHandlerTable
 * const catalogue = jobCatalogue(handlerTable)
 * await catalogue.run("execute_payment", { payment_id: "pay_1", workspace_id: "ws_1" })
 */
export const jobCatalogue = (handlers: JobHandlerTable, tracing?: Tracing): JobHandlers => ({
  kinds: jobKinds,
  run: async (kind, payload, run = { attempt: 1 }) => {
    if (!isKind(kind)) throw new UndecodableJob(`unknown job kind ${kind}`)
    const decoded = decoders[kind](payload)
    if (Either.isLeft(decoded)) throw new UndecodableJob(`undecodable ${kind} payload`)
    // The decoder of `kind` made the payload, so it is the payload of `kind`'s handler.
    const handler = handlers[kind] as (payload: unknown, run: JobRun) => Effect.Effect<unknown, DomainError>
    const work = handler(decoded.right, run).pipe(Effect.asVoid)
    // A failure rejects with the domain error itself, so the runner logs and retries it.
    await runToPromise(
      tracing === undefined
        ? work
        : spanned(
            tracing,
            tracing.extract(traceContextOf(payload)),
            `payments.job.${kind}`,
            { kind: "consumer", attributes: jobSpanAttributes(kind, run.attempt, payload) },
            () => work,
          ),
    )
  },
})

/**
 * A job run's span attributes: its kind and attempt, and the ids of its payload that its log
 * line may show ({@link jobLogFields}), each as `payments.<field>`.
 */
const jobSpanAttributes = (kind: string, attempt: number, payload: unknown): SpanAttributes => {
  const attributes: Record<string, string | number> = { "payments.job.kind": kind, "payments.job.attempt": attempt }
  for (const [name, value] of Object.entries(jobLogFields(payload))) attributes[`payments.${name}`] = value
  return attributes
}
