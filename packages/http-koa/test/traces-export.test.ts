import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { trace } from "@opentelemetry/api"
import { afterAll, describe, expect, it } from "vitest"
import { createLogger } from "../src/binding/logger.ts"
import { loadConfig } from "../src/service/config.ts"
import { StartupError, startService } from "../src/service/server.ts"
import { childEnvironment, type LineWatcher, logMessage, runNode, startNode } from "./support/child-process.ts"

/*
 * Traces of `npm start` processes, configured by the OpenTelemetry variables alone: without them
 * the service loads no SDK module (a child that cannot resolve one still serves), with an OTLP
 * endpoint it sends its spans there as OTLP/HTTP JSON, the caller's trace continued; a start that
 * fails unregisters the SDK it loaded.
 */

const main = ["--conditions=source", "--import", "tsx", "packages/http-koa/src/service/main.ts"]
/** Node's flags that make every OpenTelemetry package but the API unresolvable in a child. */
const withoutSdk = ["--import", fileURLToPath(new URL("./without-otel-sdk/register.mjs", import.meta.url))]
const withoutSdkMain = [
  "--conditions=source",
  "--import",
  "tsx",
  ...withoutSdk,
  "packages/http-koa/src/service/main.ts",
]

const running = new Set<LineWatcher>()
afterAll(() => {
  for (const service of running) service.child.kill("SIGKILL")
})

const serve = async (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const service = startNode(args, childEnvironment({ PORT: "0", DATABASE_URL: "sqlite::memory:", ...env }))
  running.add(service)
  const { url } = JSON.parse(await service.waitForLine(logMessage("listening"))) as { url: string }
  return { service, url: url.replace("localhost", "127.0.0.1") }
}

const stop = async (service: LineWatcher) => {
  service.child.kill("SIGTERM")
  expect(await service.exited).toBe(0)
  running.delete(service)
}

/** An OTLP/HTTP collector on this machine: what was POSTed to `/v1/traces`, parsed. */
const collector = async () => {
  const received: Array<OtlpTraces> = []
  const server: Server = createServer((request, response) => {
    let body = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => {
      body += chunk
    })
    request.on("end", () => {
      if (request.url === "/v1/traces" && request.method === "POST") received.push(JSON.parse(body) as OtlpTraces)
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  afterAll(() => new Promise((resolve) => server.close(resolve)))
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received }
}

/** The part of an OTLP JSON export request the test reads. */
interface OtlpTraces {
  readonly resourceSpans: ReadonlyArray<{
    readonly resource: { readonly attributes: ReadonlyArray<OtlpAttribute> }
    readonly scopeSpans: ReadonlyArray<{
      readonly scope: { readonly name: string }
      readonly spans: ReadonlyArray<{
        readonly name: string
        readonly traceId: string
        readonly parentSpanId?: string
        readonly attributes: ReadonlyArray<OtlpAttribute>
      }>
    }>
  }>
}
interface OtlpAttribute {
  readonly key: string
  readonly value: { readonly stringValue?: string; readonly intValue?: number | string }
}

describe("traces of a service process", () => {
  it("loads no OpenTelemetry SDK module without OTEL_* variables: a child unable to resolve one serves", async () => {
    const { service, url } = await serve(withoutSdkMain, {})
    expect((await fetch(`${url}/health`)).status).toBe(200)
    expect(service.lines.some(logMessage("traces exported"))).toBe(false)
    await stop(service)
    expect(service.stderr()).toBe("")
  })

  it("loads the SDK once traces are configured (so the child above would have failed to start with them)", async () => {
    const run = await runNode(
      withoutSdkMain,
      childEnvironment({ PORT: "0", DATABASE_URL: "sqlite::memory:", OTEL_TRACES_EXPORTER: "console" }),
    )
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /Cannot find package '@opentelemetry\/(sdk-trace-node|exporter-trace-otlp-http|resources|sdk-trace-base)'/,
    )
  })

  it("sends its spans to OTEL_EXPORTER_OTLP_ENDPOINT as OTLP/HTTP JSON, under OTEL_SERVICE_NAME, continuing the caller's trace", async () => {
    const otlp = await collector()
    const { service, url } = await serve(main, {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_SERVICE_NAME: "payments-traces-test",
    })
    expect(JSON.parse(service.lines.find(logMessage("traces exported")) ?? "{}")).toMatchObject({
      traces_exporter: "otlp",
      service_name: "payments-traces-test",
    })
    const traceId = "0af7651916cd43dd8448eb211c80319c"
    const health = await fetch(`${url}/health`, { headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` } })
    expect(health.status).toBe(200)
    // The batch still buffered is sent as the process shuts down.
    await stop(service)

    const exported = otlp.received.flatMap((request) =>
      request.resourceSpans.flatMap((resource) =>
        resource.scopeSpans.flatMap((scope) =>
          scope.spans.map((span) => ({
            service: resource.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue,
            scope: scope.scope.name,
            name: span.name,
            traceId: span.traceId,
            parentSpanId: span.parentSpanId,
          })),
        ),
      ),
    )
    expect(exported.filter((span) => span.name === "HTTP GET /health")).toEqual([
      {
        service: "payments-traces-test",
        scope: "@payments-engine/http-koa",
        name: "HTTP GET /health",
        traceId,
        parentSpanId: "b7ad6b7169203331",
      },
    ])
  })

  it("unregisters the SDK it loaded when the service then fails to start", async () => {
    const config = loadConfig({
      PORT: "0",
      DATABASE_URL: "postgres://postgres@127.0.0.1:1/none",
      PAYMENTS_JWT_SECRET: "traces-export-test-secret-0123456789abcdef",
      OTEL_TRACES_EXPORTER: "console",
    })
    await expect(startService(config, { logger: createLogger({ level: "silent" }), print: () => {} })).rejects.toThrow(
      StartupError,
    )
    expect(trace.getTracer("probe").startSpan("probe").isRecording()).toBe(false)
  })
})
