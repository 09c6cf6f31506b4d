import { context, propagation, type TracerProvider, trace } from "@opentelemetry/api"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources"
import { BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node"
import type { TracesConfig } from "./config.ts"

/*
 * The OpenTelemetry SDK of the service. This module alone imports it, and the service imports
 * this module only when traces are configured (`ServiceConfig.traces`): otherwise only the API,
 * whose calls are no-ops, is loaded.
 */

/** The service's tracer provider, registered for the process, and its shutdown. */
export interface ServiceTracing {
  readonly tracerProvider: TracerProvider
  /** Sends the spans still buffered, then unregisters the provider, its context manager and its propagator. */
  shutdown(): Promise<void>
}

/**
 * A `NodeTracerProvider` exporting as `config` says: OTLP over HTTP with JSON (the exporter
 * reads `OTEL_EXPORTER_OTLP_*`: endpoint, headers, timeout) through a batching processor (which
 * reads `OTEL_BSP_*`), or each span on standard output as it ends. The sampler is the SDK's
 * (`OTEL_TRACES_SAMPLER`, parent-based always-on by default); the resource is `service.name`
 * and `OTEL_RESOURCE_ATTRIBUTES`. Registered for the process, with Node's async context manager
 * and the W3C trace-context and baggage propagators, as the SDK's `register()` does.
 */
export const startServiceTracing = (config: TracesConfig): ServiceTracing => {
  const processor =
    config.exporter === "otlp"
      ? new BatchSpanProcessor(new OTLPTraceExporter())
      : new SimpleSpanProcessor(new ConsoleSpanExporter())
  const provider = new NodeTracerProvider({
    resource: defaultResource()
      .merge(resourceFromAttributes({ "service.name": config.serviceName }))
      .merge(detectResources({ detectors: [envDetector] })),
    spanProcessors: [processor],
  })
  provider.register()
  return {
    tracerProvider: provider,
    shutdown: async () => {
      await provider.shutdown()
      trace.disable()
      context.disable()
      propagation.disable()
    },
  }
}
