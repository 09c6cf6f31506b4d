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
import type { JobHandlers, JobKind, JobRun } from "../ports/job-runner.ts"
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
 * kind's schema and runs the kind's handler. A runner calls nothing else of the engine.
 *
 * @example
 * declare const handlerTable: JobHandlerTable
 * const catalogue = jobCatalogue(handlerTable)
 * await catalogue.run("execute_payment", { payment_id: "pay_1", workspace_id: "ws_1" })
 */
export const jobCatalogue = (handlers: JobHandlerTable): JobHandlers => ({
  kinds: jobKinds,
  run: async (kind, payload, run = { attempt: 1 }) => {
    if (!isKind(kind)) throw new UndecodableJob(`unknown job kind ${kind}`)
    const decoded = decoders[kind](payload)
    if (Either.isLeft(decoded)) throw new UndecodableJob(`undecodable ${kind} payload`)
    // The decoder of `kind` made the payload, so it is the payload of `kind`'s handler.
    const handler = handlers[kind] as (payload: unknown, run: JobRun) => Effect.Effect<unknown, DomainError>
    // A failure rejects with the domain error itself, so the runner logs and retries it.
    await runToPromise(handler(decoded.right, run).pipe(Effect.asVoid))
  },
})
