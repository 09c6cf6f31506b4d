import { Cause, Effect, Exit, FiberRef, Option } from "effect"
import { isDomainError } from "../../errors.ts"
import type { IdPrefix } from "../../model/ids.ts"
import type { SpanAttributes, TraceContext, TraceSpan, TraceSpanKind, Tracing } from "../../ports/tracing.ts"

/*
 * The engine's spans (see `Tracing`): a use case's and a job run's are started by the engine
 * under their caller's context, and every step inside them (a transaction, a provider call, a
 * webhook attempt, a job queued) finds its parent in the fiber. An engine without tracing never
 * sets it, and each step costs one look at the fiber.
 */

/** The span the running work belongs to, with the tracing that made it. */
export interface ActiveSpan {
  readonly tracing: Tracing
  readonly span: TraceSpan
}

/** The span of the work this fiber runs; undefined when nothing is traced. */
export const currentSpan: FiberRef.FiberRef<ActiveSpan | undefined> = FiberRef.unsafeMake<ActiveSpan | undefined>(
  undefined,
)

/** How a span of {@link spanned} is started, and what its end adds. */
export interface SpanOptions<A, E> {
  readonly kind?: TraceSpanKind
  readonly attributes?: SpanAttributes
  /** Attributes its outcome tells (the id of what it made, a provider's outcome). */
  readonly ended?: (exit: Exit.Exit<A, E>) => SpanAttributes | undefined
}

/** A failure's kind (`not_found`, `provider_failure`), or a defect's class name: never a message. */
export const failureCode = (error: unknown): string => {
  if (isDomainError(error)) return error.kind
  return error instanceof Error ? error.name.slice(0, 100) : "error"
}

const causeCode = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return failureCode(failure.value)
  if (Cause.isInterruptedOnly(cause)) return "interrupted"
  return failureCode(Cause.squash(cause))
}

/**
 * Runs `body` in a new span `name` under `parent`: the span is current inside it and ends with
 * its outcome, failed with the failure's code ({@link failureCode}).
 */
export const spanned = <A, E, R>(
  tracing: Tracing,
  parent: TraceContext,
  name: string,
  options: SpanOptions<A, E>,
  body: (active: ActiveSpan) => Effect.Effect<A, E, R>,
): Effect.Effect<A, E, R> =>
  Effect.suspend(() => {
    const span = tracing.start(name, {
      parent,
      ...(options.kind === undefined ? {} : { kind: options.kind }),
      ...(options.attributes === undefined ? {} : { attributes: options.attributes }),
    })
    const active: ActiveSpan = { tracing, span }
    return Effect.locally(body(active), currentSpan, active).pipe(
      Effect.onExit((exit) =>
        Effect.sync(() => {
          const learnt = options.ended?.(exit)
          if (learnt !== undefined) span.setAttributes(learnt)
          span.end(Exit.isSuccess(exit) ? undefined : causeCode(exit.cause))
        }),
      ),
    )
  })

/**
 * `body` in a child span `name` of the current one, given that span; given undefined, and
 * spanned by nothing, when nothing is traced.
 */
export const inChildSpan = <A, E, R>(
  name: string,
  options: SpanOptions<A, E>,
  body: (active: ActiveSpan | undefined) => Effect.Effect<A, E, R>,
): Effect.Effect<A, E, R> =>
  FiberRef.getWith(currentSpan, (parent) =>
    parent === undefined ? body(undefined) : spanned(parent.tracing, parent.span.context, name, options, body),
  )

/**
 * `work` (a promise outside the fiber, such as a webhook request) in a child span `name` of
 * `parent`, ended when it settles; `work` alone when `parent` is undefined.
 */
export const spannedPromise = async <A>(
  parent: ActiveSpan | undefined,
  name: string,
  options: {
    readonly kind?: TraceSpanKind
    readonly attributes?: SpanAttributes
    /** The attributes of its answer, and the failure it stands for, if any. */
    readonly ended: (answer: A) => { readonly attributes: SpanAttributes; readonly error?: string }
  },
  work: () => Promise<A>,
): Promise<A> => {
  if (parent === undefined) return work()
  const span = parent.tracing.start(name, {
    parent: parent.span.context,
    ...(options.kind === undefined ? {} : { kind: options.kind }),
    ...(options.attributes === undefined ? {} : { attributes: options.attributes }),
  })
  try {
    const answer = await work()
    const { attributes, error } = options.ended(answer)
    span.setAttributes(attributes)
    span.end(error)
    return answer
  } catch (error) {
    span.end(failureCode(error))
    throw error
  }
}

/**
 * The attribute of an id of each kind, by its prefix: `payments.payment_id` for `pay_...`. The
 * hosted-page token's id is left out: it names a credential.
 */
const idAttributes: { readonly [P in Exclude<IdPrefix, "hpt">]: string } = {
  ws: "payments.workspace_id",
  key: "payments.api_key_id",
  cmp: "payments.company_id",
  ent: "payments.entity_id",
  rcp: "payments.recipient_id",
  ba: "payments.bank_account_id",
  ad: "payments.account_detail_id",
  rd: "payments.routing_detail_id",
  pp: "payments.payment_profile_id",
  qt: "payments.quote_id",
  pay: "payments.payment_id",
  pb: "payments.batch_id",
  job: "payments.job_id",
  evt: "payments.event_id",
  app: "payments.application_id",
  we: "payments.endpoint_id",
  wes: "payments.subscription_id",
  whd: "payments.delivery_id",
  wer: "payments.recovery_id",
  onb: "payments.onboarding_id",
  obd: "payments.business_details_id",
  bid: "payments.business_identifier_id",
  oad: "payments.address_id",
  per: "payments.person_id",
  pid: "payments.identification_id",
  att: "payments.attachment_id",
  tdc: "payments.trusted_domain_config_id",
}

/** An id of ours: a known prefix, `_`, then letters and digits; anything else is no attribute. */
const idShape = /^([a-z]{2,3})_[A-Za-z0-9]{1,100}$/

/** The attribute `text` goes under if it is an id of ours, else undefined. */
const idAttributeOf = (text: string): string | undefined => {
  const prefix = idShape.exec(text)?.[1]
  return prefix !== undefined && Object.hasOwn(idAttributes, prefix)
    ? idAttributes[prefix as keyof typeof idAttributes]
    : undefined
}

/** `attributes` with `text` under its id's attribute, when it is an id and the attribute is not set yet. */
const addId = (attributes: Record<string, string>, text: unknown) => {
  if (typeof text !== "string") return
  const name = idAttributeOf(text)
  if (name !== undefined && !(name in attributes)) attributes[name] = text
}

/**
 * The attributes of a use case's span from its arguments: the actor's workspace, and the ids
 * among the arguments that follow it (the path's ids: company, payment, ...). Only a call whose
 * first argument is an actor is read, and only its plain string arguments: bodies are not.
 */
export const useCaseAttributes = (args: ReadonlyArray<unknown>, readIds: boolean): SpanAttributes => {
  const attributes: Record<string, string> = {}
  const [first, ...rest] = args
  if (typeof first !== "object" || first === null) return attributes
  const { workspaceId, scope } = first as { workspaceId?: unknown; scope?: unknown }
  if (typeof workspaceId !== "string" || typeof scope !== "string") return attributes
  addId(attributes, workspaceId)
  if (readIds) for (const arg of rest) addId(attributes, arg)
  return attributes
}

/**
 * The ids a use case's answer names, for its span: the answer's own `id`, and that of each
 * object directly in it (`{ payment, created }`); lists are not read.
 */
export const answerAttributes = (answer: unknown): SpanAttributes | undefined => {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return undefined
  const attributes: Record<string, string> = {}
  const record = answer as Record<string, unknown>
  addId(attributes, record.id)
  for (const value of Object.values(record)) {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      addId(attributes, (value as { id?: unknown }).id)
    }
  }
  return attributes
}

/** The span of use case `name` of `service`: `payments.payments.create`. */
export const useCaseSpanName = (service: string, name: string): string => `payments.${service}.${name}`
