import { createServer, type Server } from "node:http"
import type {
  BankLinkProvider,
  JobRunnerLog,
  PaymentProvider,
  WebhookAttempt,
  WebhookTransport,
} from "@payments-engine/core"
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client"
import type { AppMetrics } from "../binding/metrics/app-metrics.ts"

/** Buckets in seconds, from a cheap read to a slow provider call. */
const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
/** Buckets in seconds from a payment or batch to its outcome: a tenth of a second to a day. */
const batchBuckets = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 24 * 3600]

/**
 * One process's metrics in a prom-client registry of its own (so two services in one process, as
 * tests start them, never share counters), and the hooks that move them: {@link ServiceMetrics.app}
 * for the HTTP app, {@link ServiceMetrics.jobLog} beside the job log, and wrappers of the provider,
 * bank linker and webhook transport. Every label is bounded: route templates, kinds, operations,
 * outcomes, never an id.
 */
export interface ServiceMetrics {
  readonly registry: Registry
  readonly app: AppMetrics
  /** Counts what the job log is told: job runs, batches, circuits. */
  readonly jobLog: JobRunnerLog
  readonly paymentProvider: (provider: PaymentProvider) => PaymentProvider
  readonly bankLinker: (linker: BankLinkProvider) => BankLinkProvider
  readonly webhookTransport: (transport: WebhookTransport) => WebhookTransport
}

/** The name prefix of every metric of ours (the process metrics of prom-client keep theirs). */
export const metricPrefix = "payments_engine_"

/** A webhook attempt's outcome label: the status class, or the failure's name. */
const attemptOutcome = (attempt: WebhookAttempt): string =>
  attempt.kind === "answered" ? `${Math.floor(attempt.status / 100)}xx` : attempt.failure

/**
 * `target` with each method of `operations` timed into `calls` and `seconds` by its name, and
 * its rejections counted as errors.
 */
const timedCalls = <T extends object>(
  target: T,
  operations: ReadonlyArray<keyof T & string>,
  port: string,
  calls: Counter<"port" | "operation" | "outcome">,
  seconds: Histogram<"port" | "operation">,
): T => {
  const timed: Record<string, unknown> = {}
  for (const operation of operations) {
    const method = target[operation] as unknown as (...args: Array<unknown>) => Promise<unknown>
    const ended = seconds.labels(port, operation)
    const ok = calls.labels(port, operation, "ok")
    const failed = calls.labels(port, operation, "error")
    timed[operation] = async (...args: Array<unknown>) => {
      const stop = ended.startTimer()
      try {
        const answer = await method.apply(target, args)
        ok.inc()
        return answer
      } catch (error) {
        failed.inc()
        throw error
      } finally {
        stop()
      }
    }
  }
  return { ...target, ...timed } as T
}

const paymentOperations = [
  "bankCountries",
  "paymentMethods",
  "bankAccountRequirements",
  "createBeneficiary",
  "exchangeRate",
  "submitPayment",
  "findPayment",
] as const satisfies ReadonlyArray<keyof PaymentProvider>

const linkOperations = ["institutions", "link", "unlink"] as const satisfies ReadonlyArray<keyof BankLinkProvider>

/**
 * The service's metrics (see {@link ServiceMetrics}), with Node's process metrics
 * (`process_*`, `nodejs_*`) in the same registry.
 *
 * @example
 * const metrics = serviceMetrics()
 * createApp({ engine, tokens, metrics: metrics.app })
 * await metrics.registry.metrics() // the Prometheus text exposition
 */
export const serviceMetrics = (): ServiceMetrics => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const registers = [registry]
  const requests = new Histogram({
    name: `${metricPrefix}http_request_duration_seconds`,
    help: "HTTP requests answered, by method, route template and status, and how long they took.",
    labelNames: ["method", "route", "status"] as const,
    buckets: latencyBuckets,
    registers,
  })
  const rateLimited = new Counter({
    name: `${metricPrefix}rate_limit_refusals_total`,
    help: "Requests refused with 429 by a rate limit, by limit.",
    labelNames: ["limit"] as const,
    registers,
  })
  const idempotency = new Counter({
    name: `${metricPrefix}idempotency_requests_total`,
    help: "Idempotency-Key requests replayed or refused (in_flight: 409; mismatch: 422), by outcome.",
    labelNames: ["outcome"] as const,
    registers,
  })
  const jobRuns = new Counter({
    name: `${metricPrefix}job_runs_total`,
    help: "Job runs ended, by kind and outcome (done, retry, given_up).",
    labelNames: ["kind", "outcome"] as const,
    registers,
  })
  const jobSeconds = new Histogram({
    name: `${metricPrefix}job_run_duration_seconds`,
    help: "How long job runs took, by kind.",
    labelNames: ["kind"] as const,
    buckets: latencyBuckets,
    registers,
  })
  const jobAttempts = new Histogram({
    name: `${metricPrefix}job_attempts`,
    help: "Which attempt a job's run was, by kind and outcome.",
    labelNames: ["kind", "outcome"] as const,
    buckets: [1, 2, 3, 5, 8, 13, 21],
    registers,
  })
  const runnerFailures = new Counter({
    name: `${metricPrefix}job_runner_failures_total`,
    help: "Failures of the job runner itself (not of a job).",
    registers,
  })
  const batches = new Counter({
    name: `${metricPrefix}batches_total`,
    help: "Payment batches started and ended, by phase (started, completed) and status.",
    labelNames: ["phase", "status"] as const,
    registers,
  })
  const batchSeconds = new Histogram({
    name: `${metricPrefix}batch_duration_seconds`,
    help: "Payment batches from submission to completion (by the batch's clock), by status.",
    labelNames: ["status"] as const,
    buckets: batchBuckets,
    registers,
  })
  const payments = new Counter({
    name: `${metricPrefix}payments_total`,
    help: "Payments created and settled, by event (created, completed, failed, cancelled) and whether batched.",
    labelNames: ["event", "batched"] as const,
    registers,
  })
  const paymentSeconds = new Histogram({
    name: `${metricPrefix}payment_outcome_seconds`,
    help: "Payments from creation to their outcome (by the payment's clock), by outcome.",
    labelNames: ["outcome"] as const,
    buckets: batchBuckets,
    registers,
  })
  const circuits = new Counter({
    name: `${metricPrefix}webhook_circuit_changes_total`,
    help: "Webhook endpoint circuits opened or closed, and endpoints the engine disabled (change: disabled).",
    labelNames: ["change"] as const,
    registers,
  })
  const deliveries = new Counter({
    name: `${metricPrefix}webhook_attempts_total`,
    help: "Webhook delivery attempts, by outcome (2xx, 4xx, 5xx or the failure: timeout, connection_refused, ...).",
    labelNames: ["outcome"] as const,
    registers,
  })
  const deliverySeconds = new Histogram({
    name: `${metricPrefix}webhook_attempt_duration_seconds`,
    help: "How long webhook delivery attempts took.",
    buckets: latencyBuckets,
    registers,
  })
  const providerCalls = new Counter({
    name: `${metricPrefix}provider_calls_total`,
    help: "Calls to the payment provider and bank linker, by port, operation and outcome (ok, error).",
    labelNames: ["port", "operation", "outcome"] as const,
    registers,
  })
  const providerSeconds = new Histogram({
    name: `${metricPrefix}provider_call_duration_seconds`,
    help: "How long calls to the payment provider and bank linker took, by port and operation.",
    labelNames: ["port", "operation"] as const,
    buckets: latencyBuckets,
    registers,
  })
  return {
    registry,
    app: {
      request: (method, route, status, seconds) => requests.labels(method, route, String(status)).observe(seconds),
      rateLimited: (limit) => rateLimited.labels(limit).inc(),
      idempotency: (outcome) => idempotency.labels(outcome).inc(),
    },
    jobLog: (event) => {
      if ("circuit" in event) circuits.labels(event.circuit).inc()
      else if ("payment" in event) {
        payments.labels(event.payment, String(event.batched)).inc()
        if (event.durationMs !== undefined) paymentSeconds.labels(event.payment).observe(event.durationMs / 1000)
      } else if ("batch" in event) {
        if (event.batch === "progress") return
        batches.labels(event.batch, event.status).inc()
        if (event.durationMs !== undefined) batchSeconds.labels(event.status).observe(event.durationMs / 1000)
      } else if (!("outcome" in event)) runnerFailures.inc()
      else {
        jobRuns.labels(event.kind, event.outcome).inc()
        if (event.durationMs !== undefined) jobSeconds.labels(event.kind).observe(event.durationMs / 1000)
        if (event.attempt !== undefined) jobAttempts.labels(event.kind, event.outcome).observe(event.attempt)
      }
    },
    paymentProvider: (provider) => timedCalls(provider, paymentOperations, "payment", providerCalls, providerSeconds),
    bankLinker: (linker) => timedCalls(linker, linkOperations, "bank_link", providerCalls, providerSeconds),
    webhookTransport: (transport) => ({
      checkUrl: (url) => transport.checkUrl(url),
      send: async (request) => {
        const attempt = await transport.send(request)
        deliveries.labels(attemptOutcome(attempt)).inc()
        deliverySeconds.observe(attempt.durationMs / 1000)
        return attempt
      },
    }),
  }
}

/**
 * A server of `GET /metrics` alone (the registry's exposition), for its own port: never on the
 * API's, so it is not public unless that port is published. Anything else is 404.
 */
export const metricsServer = (registry: Registry): Server =>
  createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0]
    if (path !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found\n")
      return
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType }).end(text),
      (error: unknown) =>
        response
          .writeHead(500, { "content-type": "text/plain; charset=utf-8" })
          .end(`metrics failed: ${error instanceof Error ? error.message : String(error)}\n`),
    )
  })
