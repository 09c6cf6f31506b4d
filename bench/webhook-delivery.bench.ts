/**
 * How fast webhooks are delivered, part of `npm run bench`: deliveries a second to a receiver on
 * 127.0.0.1 that answers 200 at once, from the outbox through the job engine (signed, logged),
 * against the limit: a plain loop in one process that signs the same bodies and POSTs them one
 * after another through the same transport to the same receiver. On SQLite, and on Postgres when
 * DATABASE_URL names one. Goal (issue 10): at least 0.5 of the limit, and at least 1,000
 * deliveries a second on SQLite.
 *
 * Results replace the "## Webhook deliveries" section of docs/benchmarks.md.
 *
 *   npm run build && node --import tsx bench/webhook-delivery.bench.ts
 */
import { mkdtempSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { cpus, loadavg, tmpdir, type } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { createHttpWebhookTransport, type KyselyStorage, openSqliteStorage } from "@payments-engine/adapters"
import { graphileWorkerSchema, openPostgresStorage } from "@payments-engine/adapters/postgres"
import { setUpPayer } from "@payments-engine/adapters/testing"
import { webhookSignatureHeaders } from "@payments-engine/core"
import { benchEngine } from "./bench-engine.ts"
import { writeResultsSection } from "./bench-results.ts"

const deliveries = Number(process.env.BENCH_DELIVERIES ?? 2000)
const startLoad = loadavg()[0] ?? 0

const receiver = createServer((req, res) => {
  req.resume()
  req.on("end", () => res.writeHead(200).end())
})
receiver.listen(0, "127.0.0.1")
await new Promise((resolve) => receiver.once("listening", resolve))
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
const transport = createHttpWebhookTransport({ allowLoopback: true })

/** Deliveries a second through the engine: `count` events queued while no runner runs, then run. */
const throughEngine = async (storage: KyselyStorage, count: number, workspace: string) => {
  const engine = benchEngine(storage, { webhookTransport: transport })
  const payer = await setUpPayer(engine, workspace)
  await engine.webhookEndpoints.create(payer.actor, payer.companyId, { url, event_names: ["entity.updated"] })
  const entity = (await engine.entities.list(payer.actor, payer.companyId)).data[0]!
  for (let i = 0; i < count; i++) {
    await engine.entities.update(payer.actor, payer.companyId, entity.id, { name: `Bench Entity ${i}` })
  }
  const pending = async () => {
    const row = await storage.db
      .selectFrom("webhook_deliveries")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("status", "=", "pending")
      .executeTakeFirst()
    return Number(row?.n ?? 0)
  }
  const started = performance.now()
  engine.jobs.start()
  while ((await pending()) > 0) await new Promise((resolve) => setTimeout(resolve, 20))
  const perSecond = count / ((performance.now() - started) / 1000)
  await engine.jobs.stop()
  const bodies = await storage.db
    .selectFrom("webhook_deliveries")
    .select(["event_id", "payload"])
    .where("company_id", "=", payer.companyId)
    .execute()
  return { perSecond, bodies }
}

/**
 * Both sides measured warm: a first, smaller round of each runs before the measured one, so
 * neither pays for compiling the code paths it shares with the other (signing, the HTTP client).
 */
const measure = async (storage: KyselyStorage) => {
  await plainLoop((await throughEngine(storage, deliveries / 4, "bench-webhooks-warm-up")).bodies)
  const { perSecond, bodies } = await throughEngine(storage, deliveries, "bench-webhooks")
  return { engine: perSecond, limit: await plainLoop(bodies) }
}

/** The limit: the same bodies signed and POSTed one after another, nothing stored. */
const plainLoop = async (bodies: ReadonlyArray<{ readonly event_id: string; readonly payload: string }>) => {
  const secret = "whsec_benchbenchbenchbenchbenchbench12"
  const started = performance.now()
  for (const { event_id, payload } of bodies) {
    const headers = await webhookSignatureHeaders({
      body: payload,
      eventId: event_id,
      timestamp: Math.floor(Date.now() / 1000),
      secrets: [secret],
    })
    const attempt = await transport.send({ url, body: payload, headers, timeoutMs: 30_000 })
    if (attempt.kind !== "answered" || attempt.status !== 200) throw new Error("the receiver did not answer 200")
  }
  return bodies.length / ((performance.now() - started) / 1000)
}

const rows: Array<{ name: string; engine: number; limit: number }> = []
{
  const folder = mkdtempSync(join(tmpdir(), "pe-bench-webhooks-"))
  const storage = await openSqliteStorage({ filename: join(folder, "webhooks.sqlite") })
  rows.push({ name: "SQLite file", ...(await measure(storage)) })
  await storage.close()
}
const postgresUrl = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : undefined
if (postgresUrl !== undefined) {
  const schema = `pe_bench_webhooks_${process.pid}`
  const storage = await openPostgresStorage({ connectionString: postgresUrl, schema })
  rows.push({ name: "Postgres", ...(await measure(storage)) })
  for (const each of [schema, graphileWorkerSchema(schema)]) {
    await storage.db.schema.dropSchema(each).ifExists().cascade().execute()
  }
  await storage.close()
}
receiver.close()

const text = [
  "## Webhook deliveries",
  "",
  "`npm run bench` also runs `bench/webhook-delivery.bench.ts`.",
  `Measured ${new Date().toISOString().slice(0, 10)} on ${type()} ${process.arch}, ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"},`,
  `Node ${process.version}; load average ${startLoad.toFixed(1)} when it began.`,
  "",
  `${deliveries} \`entity.updated\` events of one company with one endpoint, written while no job runner runs; then the`,
  "runner starts: deliveries a second until the last one has succeeded, each signed, POSTed to a receiver on 127.0.0.1",
  "that answers 200 at once, and logged. The limit: the same bodies signed and POSTed one after another by a plain loop",
  "in one process through the same transport, nothing stored. A round of a quarter the size warms both sides first.",
  "Goal: at least 0.5 of the limit, and 1,000 a second on SQLite.",
  "",
  "| Database | Deliveries/s | Plain signed POSTs/s (limit) | Deliveries / limit |",
  "|---|---|---|---|",
  ...rows.map(
    (r) => `| ${r.name} | ${Math.round(r.engine)} | ${Math.round(r.limit)} | ${(r.engine / r.limit).toFixed(2)} |`,
  ),
  "",
].join("\n")
writeResultsSection("## Webhook deliveries", text)
