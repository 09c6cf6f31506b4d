import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { type LineWatcher, logMessage } from "./support/child-process.ts"
import { processRig } from "./support/process-rig.ts"
import {
  awaitBatchEnded,
  awaitCompleted,
  queueBatch,
  queuePayments,
  queueWebhookDeliveries,
  queuingServerSecret,
} from "./support/queued-payments.ts"
import { type Scrape, scrape } from "./support/scraped-metrics.ts"
import { acme } from "./support/test-service.ts"

/*
 * `GET /metrics` of real service processes (`PAYMENTS_METRICS_PORT`), scraped while they work
 * (a batch, webhook deliveries to a live and a dead endpoint, requests refused by a rate limit
 * and by the idempotency rules) and parsed as Prometheus text: each counter moves by exactly
 * the work done, under bounded labels; two processes on one Postgres each report their own.
 */

const { folder, running, serverUrl, postgresUrl, startRecordingService } = processRig("metrics")

const apiKey = "pk_metrics_test"
const apiSecret = "sk_metrics_test_secret"

/** A webhook receiver answering 200 to everything, counting what it received. */
const receiver = async () => {
  let received = 0
  const server: Server = createServer((request, response) => {
    request.resume().on("end", () => {
      received += 1
      response.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  afterAll(() => server.close())
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received: () => received }
}

/** A URL on this machine that nothing listens on: a webhook endpoint in an outage. */
const deadUrl = async () => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}/hook`
}

/** Starts the service with metrics on a port of their own; answers the API's and the metrics' URLs. */
const start = async (env: Record<string, string>) => {
  const service = await startRecordingService({ PAYMENTS_METRICS_PORT: "0", ...env })
  const served = JSON.parse(await service.waitForLine(logMessage("metrics served"))) as { metrics_port: number }
  const listening = JSON.parse(await service.waitForLine(logMessage("listening"))) as { port: number }
  return {
    service,
    api: `http://127.0.0.1:${listening.port}`,
    metrics: `http://127.0.0.1:${served.metrics_port}/metrics`,
  }
}

const until = async (done: () => Promise<boolean> | boolean, what: string) => {
  for (let i = 0; i < 600; i++) {
    if (await done()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** What an id of ours looks like (`pay_01J...`, `whd_...`): never a label value. */
const idLike = /^[a-z]{2,4}_[0-9A-Za-z]{8,}$/

describe("GET /metrics of a service process at work", () => {
  it("counts requests by route template and status, refusals, replays, a batch's payments and webhook attempts", async () => {
    const databaseUrl = `sqlite:${join(folder, "work.sqlite")}`
    const live = await receiver()
    const { batchId } = await queueBatch(databaseUrl, 12, "metrics-batch")
    await queueWebhookDeliveries(databaseUrl, live.url, 3, "metrics-live")
    await queueWebhookDeliveries(databaseUrl, await deadUrl(), 2, "metrics-dead")
    const { api, metrics, service } = await start({
      DATABASE_URL: databaseUrl,
      PAYMENTS_SANDBOX: "true",
      PAYMENTS_JWT_SECRET: queuingServerSecret,
      PROVIDER_BOOK: join(folder, "work-book.txt"),
      PAYMENTS_BATCH_RATE: "1000",
      PAYMENTS_API_KEY: apiKey,
      PAYMENTS_API_SECRET: apiSecret,
      PAYMENTS_RATE_LIMIT_SESSIONS_PER_ADDRESS: "2",
    })

    const signIn = () =>
      fetch(`${api}/api/v1/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ api_key: apiKey, api_secret: apiSecret }),
      })
    const session = await signIn()
    expect(session.status).toBe(201)
    const token = ((await session.json()) as { data: { access_token: string } }).data.access_token
    const createCompany = (body: object) =>
      fetch(`${api}/api/v1/companies`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "idempotency-key": "k-1" },
        body: JSON.stringify(body),
      })
    expect((await createCompany(acme)).status).toBe(201)
    const replay = await createCompany(acme)
    expect([replay.status, replay.headers.get("idempotent-replayed")]).toEqual([201, "true"])
    expect((await createCompany({ ...acme, name: "Another Inc" })).status).toBe(422)
    const company = (await (await createCompany(acme)).json()) as { data: { id: string } }
    const read = await fetch(`${api}/api/v1/companies/${company.data.id}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(read.status).toBe(200)
    expect((await fetch(`${api}/probe-${Date.now()}`)).status).toBe(404)
    expect((await signIn()).status).toBe(201)
    expect((await signIn()).status).toBe(429)

    expect(await awaitBatchEnded(databaseUrl, batchId, 30_000)).toMatchObject({ status: "completed" })
    await until(() => live.received() >= 3, "the live endpoint's deliveries")
    let scraped: Scrape = await scrape(metrics)
    await until(async () => {
      scraped = await scrape(metrics)
      return (
        scraped.value("payments_engine_batches_total", { phase: "completed" }) === 1 &&
        scraped.value("payments_engine_webhook_attempts_total", { outcome: "connection_refused" }) >= 1
      )
    }, "the batch's and the dead endpoint's metrics")

    const requests = (labels: Record<string, string>) =>
      scraped.value("payments_engine_http_request_duration_seconds", labels)
    expect({
      signedIn: requests({ method: "POST", route: "/api/v1/sessions", status: "201" }),
      refused: requests({ method: "POST", route: "/api/v1/sessions", status: "429" }),
      created: requests({ method: "POST", route: "/api/v1/companies", status: "201" }),
      mismatched: requests({ method: "POST", route: "/api/v1/companies", status: "422" }),
      read: requests({ method: "GET", route: "/api/v1/companies/{id}", status: "200" }),
      unmatched: requests({ route: "unmatched", status: "404" }),
      rateLimited: scraped.value("payments_engine_rate_limit_refusals_total", { limit: "sessionsPerAddress" }),
      replayed: scraped.value("payments_engine_idempotency_requests_total", { outcome: "replayed" }),
      mismatch: scraped.value("payments_engine_idempotency_requests_total", { outcome: "mismatch" }),
    }).toEqual({
      signedIn: 2,
      refused: 1,
      created: 3,
      mismatched: 1,
      read: 1,
      unmatched: 1,
      rateLimited: 1,
      replayed: 2,
      mismatch: 1,
    })
    expect({
      completed: scraped.value("payments_engine_payments_total", { event: "completed", batched: "true" }),
      failed: scraped.value("payments_engine_payments_total", { event: "failed" }),
      // Created by the process that queued them, not by this one.
      created: scraped.value("payments_engine_payments_total", { event: "created" }),
      timed: scraped.value("payments_engine_payment_outcome_seconds", { outcome: "completed" }),
      batches: scraped.value("payments_engine_batches_total", { phase: "completed", status: "completed" }),
      batchesTimed: scraped.value("payments_engine_batch_duration_seconds", { status: "completed" }),
      submitted: scraped.value("payments_engine_provider_calls_total", {
        port: "payment",
        operation: "submitPayment",
        outcome: "ok",
      }),
      submissionsTimed: scraped.value("payments_engine_provider_call_duration_seconds", {
        port: "payment",
        operation: "submitPayment",
      }),
      delivered: scraped.value("payments_engine_webhook_attempts_total", { outcome: "2xx" }),
    }).toEqual({
      completed: 12,
      failed: 0,
      created: 0,
      timed: 12,
      batches: 1,
      batchesTimed: 1,
      submitted: 12,
      submissionsTimed: 12,
      delivered: 3,
    })
    expect(scraped.value("payments_engine_job_runs_total", { kind: "process_batch", outcome: "done" })).toBe(1)
    expect(
      scraped.value("payments_engine_job_runs_total", { kind: "deliver_webhook", outcome: "done" }),
    ).toBeGreaterThanOrEqual(1)
    expect(
      scraped.value("payments_engine_job_run_duration_seconds", { kind: "execute_batch_payments" }),
    ).toBeGreaterThanOrEqual(1)
    expect(scraped.value("process_cpu_seconds_total")).toBeGreaterThan(0)
    expect(scraped.typeOf("payments_engine_http_request_duration_seconds")).toBe("HISTOGRAM")
    expect(scraped.typeOf("payments_engine_payments_total")).toBe("COUNTER")
    expect(scraped.labelValues.filter((value) => idLike.test(value) || value.includes("probe-"))).toEqual([])

    // The metrics are served on their port only: the API's has none, and the metrics port nothing else.
    expect((await fetch(`${api}/metrics`)).status).toBe(404)
    expect((await fetch(metrics.replace(/\/metrics$/, "/health"))).status).toBe(404)
    service.child.kill("SIGTERM")
    await service.exited
    running.delete(service)
  }, 120_000)

  it("is off unless PAYMENTS_METRICS_PORT is set", async () => {
    const service: LineWatcher = await startRecordingService({
      DATABASE_URL: "sqlite::memory:",
      PAYMENTS_SANDBOX: "true",
      PROVIDER_BOOK: join(folder, "off-book.txt"),
    })
    const listening = JSON.parse(await service.waitForLine(logMessage("listening"))) as { port: number }
    expect((await fetch(`http://127.0.0.1:${listening.port}/metrics`)).status).toBe(404)
    expect(service.lines.some(logMessage("metrics served"))).toBe(false)
  })

  it.skipIf(serverUrl === undefined)(
    "of two processes on one Postgres database, each reports its own payments and provider calls",
    async () => {
      const databaseUrl = postgresUrl("two")
      const book = join(folder, "two-book.txt")
      const paymentIds = await queuePayments(databaseUrl, 16, "metrics-two")
      const env = {
        DATABASE_URL: databaseUrl,
        PAYMENTS_SANDBOX: "true",
        PAYMENTS_JWT_SECRET: queuingServerSecret,
        PROVIDER_BOOK: book,
        PROVIDER_DELAY_MS: "50",
      }
      const [first, second] = await Promise.all([start(env), start(env)])
      expect(await awaitCompleted(databaseUrl, paymentIds, 60_000)).toEqual(paymentIds.map(() => "completed"))
      const submittedBy = (pid: number | undefined) =>
        readFileSync(book, "utf8")
          .split("\n")
          .filter((line) => line.startsWith("submitted ") && line.includes(` by ${pid} at `)).length
      const reports = await Promise.all(
        [first, second].map(async ({ metrics, service }) => {
          const scraped = await scrape(metrics)
          return {
            submitted: scraped.value("payments_engine_provider_calls_total", { operation: "submitPayment" }),
            inBook: submittedBy(service.child.pid),
            completed: scraped.value("payments_engine_payments_total", { event: "completed", batched: "false" }),
          }
        }),
      )
      for (const report of reports) expect(report.submitted).toBe(report.inBook)
      expect(reports.map((report) => report.completed).reduce((a, b) => a + b)).toBe(16)
      expect(reports.map((report) => report.submitted).reduce((a, b) => a + b)).toBe(16)
    },
    150_000,
  )
})
