import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api"
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node"
import { openTelemetryTracing, sandboxExamples } from "@payments-engine/adapters"
import { afterAll, describe, expect, it } from "vitest"
import { createLogger } from "../src/binding/logger.ts"
import { loadConfig } from "../src/service/config.ts"
import { type RunningService, startService } from "../src/service/server.ts"
import { processRig } from "./support/process-rig.ts"
import { fastHasher, readResponse, type TestResponse } from "./support/test-service.ts"

/*
 * The spans of a real service (`startService`, its real job runner: the embedded one on SQLite,
 * graphile-worker on Postgres) given an SDK tracer provider whose spans land in memory, as a
 * host passes its own. One payment is followed from the caller's `traceparent` through the
 * request, its use case and transaction, the job it queued, the provider call, and the webhook
 * its completion sent to a receiver on this machine: one trace.
 */

const exporter = new InMemorySpanExporter()
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
// The context manager and the W3C propagator, as a host's SDK set-up registers them.
provider.register()
afterAll(async () => {
  await provider.shutdown()
  trace.disable()
  context.disable()
  propagation.disable()
})

const { folder, serverUrl, postgresUrl } = processRig("traces")

/** A webhook receiver answering 200 to everything. */
const receiver = async () => {
  let received = 0
  const server: Server = createServer((request, response) => {
    request.resume().on("end", () => {
      received += 1
      response.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  afterAll(() => new Promise((resolve) => server.close(resolve)))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received: () => received }
}

const until = async (done: () => boolean, what: string) => {
  for (let i = 0; i < 600; i++) {
    if (done()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

const start = async (databaseUrl: string): Promise<RunningService> => {
  const config = loadConfig({
    PORT: "0",
    DATABASE_URL: databaseUrl,
    PAYMENTS_SANDBOX: "true",
    PAYMENTS_JWT_SECRET: "traces-test-server-secret-0123456789abcdef",
    PAYMENTS_ATTACHMENTS_DIR: join(folder, "attachments"),
  })
  const service = await startService(config, {
    logger: createLogger({ level: "silent" }),
    print: () => {},
    hasher: fastHasher(),
    host: "127.0.0.1",
    tracerProvider: provider,
  })
  afterAll(() => service.close())
  return service
}

/** A client of `service` signed in to a new workspace. */
const clientOf = async (service: RunningService, workspace: string) => {
  const send = async (
    method: string,
    path: string,
    options: { readonly body?: unknown; readonly headers?: Record<string, string>; readonly token?: string } = {},
  ): Promise<TestResponse> =>
    readResponse(
      await fetch(`${service.url.replace("localhost", "127.0.0.1")}${path}`, {
        method,
        headers: {
          ...(options.body === undefined ? {} : { "content-type": "application/json" }),
          ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
          ...options.headers,
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      }),
    )
  const key = await service.engine.access.createApiKey({ workspace, scope: "write" })
  const session = await send("POST", "/api/v1/sessions", { body: { api_key: key.api_key, api_secret: key.api_secret } })
  const token: string = session.body.data.access_token
  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await send(method, path, { token, headers, ...(body === undefined ? {} : { body }) })
    expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300)
    return response
  }
  return { send, token, api }
}

const spans = () => exporter.getFinishedSpans()
const idOf = (span: ReadableSpan) => span.spanContext().spanId
const traceOf = (span: ReadableSpan) => span.spanContext().traceId
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId
/** The one finished span named `name` whose attributes include `attributes`. */
const spanNamed = (name: string, attributes: Record<string, unknown> = {}): ReadableSpan => {
  const found = spans().filter(
    (span) => span.name === name && Object.entries(attributes).every(([key, value]) => span.attributes[key] === value),
  )
  expect(
    found.map((span) => span.name),
    `spans named ${name} with ${JSON.stringify(attributes)}`,
  ).toEqual([name])
  return found[0] as ReadableSpan
}

/** What an id of ours looks like (`pay_01J...`): never in a span's name. */
const idLike = /[a-z]{2,4}_[0-9A-Z]{10,}/

const callerTraceId = "4bf92f3577b34da6a3ce929d0e0e4736"
const callerSpanId = "00f067aa0ba902b7"

const storages: ReadonlyArray<readonly [string, () => string]> = [
  ["SQLite (the embedded job runner)", () => `sqlite:${join(folder, "traces.sqlite")}`],
  ["Postgres (graphile-worker)", () => postgresUrl("flow")],
]

describe.each(storages)("the spans of a service on %s", (label, databaseUrlOf) => {
  it.skipIf(label.startsWith("Postgres") && serverUrl === undefined)(
    "follow a payment from the caller's traceparent through its request, use case, transaction, job, provider call and webhook",
    async () => {
      exporter.reset()
      const service = await start(databaseUrlOf())
      const hook = await receiver()
      const { api } = await clientOf(service, `traces-${label.slice(0, 6)}`)
      const cid: string = (
        await api("POST", "/api/v1/companies", { name: "Traced Inc", country: "US", default_currency: "USD" })
      ).body.data.id
      const eid: string = (
        await api("POST", `/api/v1/companies/${cid}/entities`, { name: "Traced Inc", country_alpha2: "US" })
      ).body.data.id
      const rid: string = (await api("POST", `/api/v1/companies/${cid}/recipients`, { name: "Jane Supplier" })).body
        .data.id
      const account = (
        await api("POST", `/api/v1/companies/${cid}/recipients/${rid}/bank_accounts`, {
          entity_id: eid,
          beneficiary_details: sandboxExamples.US_ACH,
        })
      ).body.data
      const funding = (await api("POST", `/api/v1/sandbox/entities/${eid}/funding_accounts`, {})).body.data
      const endpoint = (
        await api("POST", `/api/v1/companies/${cid}/webhook_endpoints`, {
          url: hook.url,
          event_names: ["PaymentEvents::CompletedEvent"],
        })
      ).body.data
      const quote = (
        await api("POST", `/api/v1/companies/${cid}/quotes`, {
          quote: {
            from_profile_id: funding.payment_profiles[0].id,
            to_profile_id: account.payment_profiles[0].id,
            instructed_amount: { amount: 125, currency: "USD" },
          },
        })
      ).body.data
      const created = await api(
        "POST",
        `/api/v1/companies/${cid}/payments`,
        { payment_instruction: { payment_quote_id: quote.id, reason: "goods_purchased", idempotency_key: "traced-1" } },
        { traceparent: `00-${callerTraceId}-${callerSpanId}-01` },
      )
      const paymentId: string = created.body.data.id
      await until(() => hook.received() >= 1, "the payment's webhook")
      // A job's span ends once its run has: after the spans of the work it did.
      const ended = (name: string) => spans().some((span) => span.name === name)
      await until(
        () => ended("payments.job.execute_payment") && ended("payments.job.deliver_webhook"),
        "the spans of the payment's and the webhook's jobs",
      )

      // The request continues the caller's trace, named by its route template.
      const request = spanNamed(`HTTP POST /api/v1/companies/{cid}/payments`)
      expect({
        kind: request.kind,
        trace: traceOf(request),
        parent: parentOf(request),
        attributes: request.attributes,
        scope: request.instrumentationScope.name,
      }).toEqual({
        kind: SpanKind.SERVER,
        trace: callerTraceId,
        parent: callerSpanId,
        attributes: {
          "http.request.method": "POST",
          "http.route": "/api/v1/companies/{cid}/payments",
          "http.response.status_code": 201,
          "payments.request_id": created.headers.get("x-request-id"),
        },
        scope: "@payments-engine/http-koa",
      })

      // Its use case is its child, with the workspace, the company and the payment it made.
      const useCase = spanNamed("payments.payments.create")
      expect({ trace: traceOf(useCase), parent: parentOf(useCase), ids: useCase.attributes }).toEqual({
        trace: callerTraceId,
        parent: idOf(request),
        ids: {
          "payments.workspace_id": expect.stringMatching(/^ws_/),
          "payments.company_id": cid,
          "payments.payment_id": paymentId,
        },
      })
      const transactions = spans().filter(
        (span) => span.name === "payments.storage.transaction" && parentOf(span) === idOf(useCase),
      )
      expect(transactions).toHaveLength(1)
      const transaction = transactions[0] as ReadableSpan

      // The job it queued in that transaction runs in the same trace, under it.
      const job = spanNamed("payments.job.execute_payment")
      expect({ kind: job.kind, trace: traceOf(job), parent: parentOf(job), attributes: job.attributes }).toEqual({
        kind: SpanKind.CONSUMER,
        trace: callerTraceId,
        parent: idOf(transaction),
        attributes: {
          "payments.job.kind": "execute_payment",
          "payments.job.attempt": 1,
          "payments.workspace_id": useCase.attributes["payments.workspace_id"],
          "payments.company_id": cid,
          "payments.payment_id": paymentId,
        },
      })
      const submitted = spanNamed("payments.provider.submitPayment")
      expect({ kind: submitted.kind, parent: parentOf(submitted), attributes: submitted.attributes }).toEqual({
        kind: SpanKind.CLIENT,
        parent: idOf(job),
        attributes: {
          "payments.provider.port": "payment",
          "payments.provider.operation": "submitPayment",
          "payments.provider.outcome": "success",
          "payments.payment_id": paymentId,
        },
      })

      // The completion's webhook: a job queued by the execution, its attempt a span of its own.
      const delivery = spanNamed("payments.job.deliver_webhook")
      expect(traceOf(delivery)).toBe(callerTraceId)
      const attempt = spanNamed("payments.webhook.attempt")
      expect({
        kind: attempt.kind,
        trace: traceOf(attempt),
        parent: parentOf(attempt),
        status: attempt.status.code,
        attributes: attempt.attributes,
      }).toEqual({
        kind: SpanKind.CLIENT,
        trace: callerTraceId,
        parent: idOf(delivery),
        status: SpanStatusCode.UNSET,
        attributes: {
          "payments.workspace_id": useCase.attributes["payments.workspace_id"],
          "payments.company_id": cid,
          "payments.endpoint_id": endpoint.id,
          "payments.delivery_id": delivery.attributes["payments.delivery_id"],
          "payments.event_id": expect.stringMatching(/^evt_/),
          "payments.event_type": "PaymentEvents::CompletedEvent",
          "payments.webhook.attempt": 1,
          "payments.webhook.outcome": "succeeded",
          "http.response.status_code": 200,
        },
      })

      // A request without traceparent starts a trace of its own; none names an id.
      const quoted = spanNamed("HTTP POST /api/v1/companies/{cid}/quotes")
      expect(parentOf(quoted)).toBeUndefined()
      expect(traceOf(quoted)).not.toBe(callerTraceId)
      expect(
        spans()
          .filter((span) => idLike.test(span.name))
          .map((span) => span.name),
      ).toEqual([])
    },
  )
})

describe("a request's span", () => {
  it("ignores a malformed traceparent, fails a use case by its error's kind and names an unknown path by its method alone", async () => {
    exporter.reset()
    const service = await start(`sqlite:${join(folder, "requests.sqlite")}`)
    const { send, token } = await clientOf(service, "traces-requests")
    const malformed = await send("GET", "/api/v1/companies", {
      token,
      headers: { traceparent: "00-not-a-trace-at-all-01" },
    })
    expect(malformed.status).toBe(200)
    const listed = spanNamed("HTTP GET /api/v1/companies")
    expect([parentOf(listed), listed.attributes["http.response.status_code"]]).toEqual([undefined, 200])

    const missing = await send("GET", `/api/v1/companies/cmp_0123456789ABCDEFGHJKMNPQRS`, { token })
    expect(missing.status).toBe(404)
    const notFound = spanNamed("HTTP GET /api/v1/companies/{id}")
    expect([notFound.status.code, notFound.attributes["http.response.status_code"]]).toEqual([
      SpanStatusCode.UNSET,
      404,
    ])
    expect(spanNamed("payments.companies.get").attributes).toEqual({
      "payments.workspace_id": expect.stringMatching(/^ws_/),
      "payments.company_id": "cmp_0123456789ABCDEFGHJKMNPQRS",
      "error.type": "not_found",
    })
    expect(spanNamed("payments.companies.get").status).toEqual({ code: SpanStatusCode.ERROR, message: "not_found" })

    expect((await send("GET", "/probe/cmp_0123456789ABCDEFGHJKMNPQRS")).status).toBe(404)
    expect(spanNamed("HTTP GET").attributes).toEqual({
      "http.request.method": "GET",
      "http.response.status_code": 404,
      "payments.request_id": expect.stringMatching(/^req_/),
    })
  })
})

describe("the engine's OpenTelemetry tracing", () => {
  it("carries a span's context to a job as a W3C traceparent, and starts a trace of its own from anything else", () => {
    exporter.reset()
    const tracing = openTelemetryTracing({ tracerProvider: provider })
    const queuing = tracing.start("queuing", { parent: tracing.active() })
    const carrier = tracing.inject(queuing.context)
    queuing.end()
    const queued = spanNamed("queuing")
    expect(carrier).toEqual({ traceparent: `00-${traceOf(queued)}-${idOf(queued)}-01` })
    tracing.start("carried", { parent: tracing.extract(carrier) }).end()
    expect([traceOf(spanNamed("carried")), parentOf(spanNamed("carried"))]).toEqual([traceOf(queued), idOf(queued)])

    const malformed = [
      undefined,
      "00-abc",
      ["x"],
      { traceparent: 42 },
      { traceparent: "00-zz-yy-01" },
      { traceparent: `00-${"0".repeat(32)}-${"0".repeat(16)}-01` },
    ]
    malformed.forEach((value, i) => {
      tracing.start(`malformed ${i}`, { parent: tracing.extract(value) }).end()
      const started = spanNamed(`malformed ${i}`)
      expect([parentOf(started), traceOf(started) === traceOf(queued)], JSON.stringify(value)).toEqual([
        undefined,
        false,
      ])
    })
    expect(tracing.inject(tracing.extract(undefined))).toEqual({})
  })
})
