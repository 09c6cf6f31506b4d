/**
 * A span attribute's value. The engine sets ids, kinds, counts and outcomes only: never a
 * message, a body, a header or a secret.
 */
export type SpanAttributeValue = string | number | boolean

/** A span's attributes by name (`payments.payment_id`, `payments.job.kind`, ...). */
export type SpanAttributes = Readonly<Record<string, SpanAttributeValue>>

/** What a span stands for, as OpenTelemetry's `SpanKind` names it. */
export type TraceSpanKind = "internal" | "client" | "consumer"

declare const traceContext: unique symbol

/**
 * Where a span stands in a trace, opaque to the engine: the context a caller was in, one a job
 * carried from the request that queued it, or a span's own (for its children). The adapter's
 * own value (OpenTelemetry's `Context`) behind a brand.
 */
export interface TraceContext {
  readonly [traceContext]: true
}

/** A span begun by {@link Tracing.start}: ended once. */
export interface TraceSpan {
  /** The context of this span: its children start under it. */
  readonly context: TraceContext
  /** Attributes learnt while the work ran (the id of what it made, a status code). */
  setAttributes(attributes: SpanAttributes): void
  /**
   * Ends the span; failed when `error` is given: the failure's kind or code (`not_found`,
   * `provider_failure`, `TypeError`), never its message, which may quote what a caller sent.
   */
  end(error?: string): void
}

/** Text fields a trace context travels in (W3C `traceparent`, and `tracestate`): a job's payload keeps them. */
export type TraceCarrier = Readonly<Record<string, string>>

/**
 * Where the engine's spans go: one per use case, storage transaction or read, provider call, job
 * run and webhook attempt (`openTelemetryTracing` of the adapters, over the OpenTelemetry API).
 * An engine without one makes no span at all, at the cost of a check per step. Calls are
 * synchronous and must not throw: a span is bookkeeping, never a reason for work to fail.
 */
export interface Tracing {
  /** The context the caller is in now (OpenTelemetry's active one): a use case's span starts under it. */
  active(): TraceContext
  /** Starts a span under `parent`. */
  start(
    name: string,
    options: {
      readonly parent: TraceContext
      readonly kind?: TraceSpanKind
      readonly attributes?: SpanAttributes
    },
  ): TraceSpan
  /** The fields that carry `context`'s span to another process (a job queued under it); none when it has no span. */
  inject(context: TraceContext): TraceCarrier
  /**
   * The context `carrier` holds, as {@link inject} wrote it: a job's run continues the trace of
   * the request that queued it. Anything else (absent, malformed) is a context of no trace: the
   * span starts a trace of its own, never an error.
   */
  extract(carrier: unknown): TraceContext
}
