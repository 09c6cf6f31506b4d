import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TracerProvider,
  trace,
} from "@opentelemetry/api"
import type { TraceCarrier, TraceContext, TraceSpanKind, Tracing } from "@payments-engine/core"

/** Options of {@link openTelemetryTracing}. */
export interface OpenTelemetryTracingOptions {
  /**
   * Where the spans go: the global provider of the OpenTelemetry API when absent (a no-op until
   * an SDK registers one, which then gets the spans of an engine made before it).
   */
  readonly tracerProvider?: TracerProvider
}

/** The scope the engine's spans are reported under. */
export const engineTracerName = "@payments-engine/core"

const kinds: Record<TraceSpanKind, SpanKind> = {
  internal: SpanKind.INTERNAL,
  client: SpanKind.CLIENT,
  consumer: SpanKind.CONSUMER,
}

// The engine's contexts are OpenTelemetry's, behind core's brand: only this adapter makes them.
const toContext = (value: TraceContext): Context => value as unknown as Context
const fromContext = (value: Context): TraceContext => value as unknown as TraceContext

/** Reads only the carrier's string fields: a job's payload is JSON, and anything may be in it. */
const carrierGetter: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = Object.hasOwn(carrier, key) ? carrier[key] : undefined
    return typeof value === "string" ? value : undefined
  },
}

/**
 * The engine's {@link Tracing} over the OpenTelemetry API: its spans go to `tracerProvider`'s
 * tracer `@payments-engine/core`; a use case's span is a child of the active context where it is
 * called (the API's context manager: the SDK's `NodeTracerProvider.register()` installs one), and
 * a job carries its trace in the propagator's fields (W3C `traceparent` with the SDK's default),
 * written from the span alone, never the caller's baggage. A failed span gets the status ERROR
 * and `error.type`, the failure's code, as its only words.
 *
 * @example
 * import type { TracerProvider } from "@opentelemetry/api"
 * declare const options: EngineOptions, tracerProvider: TracerProvider
 * const engine = createEngine({ ...options, tracing: openTelemetryTracing({ tracerProvider }) })
 */
export const openTelemetryTracing = (options: OpenTelemetryTracingOptions = {}): Tracing => {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(engineTracerName)
  return {
    active: () => fromContext(context.active()),
    start: (name, { parent, kind = "internal", attributes }) => {
      const parentContext = toContext(parent)
      const span = tracer.startSpan(name, { kind: kinds[kind], ...(attributes ? { attributes } : {}) }, parentContext)
      return {
        context: fromContext(trace.setSpan(parentContext, span)),
        setAttributes: (more) => {
          span.setAttributes(more)
        },
        end: (error) => {
          if (error !== undefined) {
            span.setStatus({ code: SpanStatusCode.ERROR, message: error })
            span.setAttribute("error.type", error)
          }
          span.end()
        },
      }
    },
    inject: (value) => {
      const span = trace.getSpan(toContext(value))
      const carrier: Record<string, string> = {}
      if (span !== undefined) propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier)
      return carrier satisfies TraceCarrier
    },
    extract: (carrier) =>
      fromContext(
        typeof carrier === "object" && carrier !== null && !Array.isArray(carrier)
          ? propagation.extract(ROOT_CONTEXT, carrier as Readonly<Record<string, unknown>>, carrierGetter)
          : ROOT_CONTEXT,
      ),
  }
}
