/**
 * How fast webhooks are delivered, part of `npm run bench`: deliveries a second to a receiver on
 * 127.0.0.1 that answers 200 at once, from the outbox through the job engine (signed, logged),
 * against the limit: a plain loop in one process that signs the same bodies and POSTs them one
 * after another through the same transport to the same receiver. The two take turns: each round
 * delivers a slice of events written while no runner runs, then POSTs as many in the plain loop.
 * On SQLite, and on Postgres when DATABASE_URL names one. Goal (issue 24): at least 0.8 of the
 * limit on both databases, and at least 1,000 deliveries a second on SQLite.
 *
 * Results replace the "## Webhook deliveries" section of docs/benchmarks.md, with the load average.
 *
 *   npm run build && node --import tsx bench/webhook-delivery.bench.ts
 *   BENCH_DELIVERY_ROUNDS=20 BENCH_DELIVERY_SLICE=200 node --import tsx bench/webhook-delivery.bench.ts
 */

import { mkdtempSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { cpus, tmpdir, type } from "node:os"
import { join } from "node:path"
import { createHttpWebhookTransport, openSqliteStorage } from "@payments-engine/adapters"
import type { KyselyStorage } from "@payments-engine/adapters/kysely"
import { kyselyStorageOf } from "@payments-engine/adapters/kysely"
import { graphileWorkerSchema, openPostgresStorage } from "@payments-engine/adapters/postgres"
import { setUpPayer } from "@payments-engine/adapters/testing"
import { type Storage, webhookSignatureHeaders } from "@payments-engine/core"
import { benchEngine } from "./bench-engine.ts"
import { writeResultsSection } from "./bench-results.ts"
import { formatRatio, inTurns, loadLine, loadNow, ratio, type Turns } from "./in-turns.ts"

const rounds = Number(process.env.BENCH_DELIVERY_ROUNDS ?? 20)
/** Deliveries a slice, on each side. */
const slice = Number(process.env.BENCH_DELIVERY_SLICE ?? 100)
/** Untimed slices of each side before the rounds: the process runs both sides faster for several. */
const warmUps = 3
/**
 * How long the receiver keeps an idle keep-alive connection: far longer than the transport's
 * connection waits while the other side has its turn (Node's 5 s default could close it under a
 * waiting client on a loaded machine).
 */
const idleConnectionMs = 2 * 60_000
const startLoad = loadNow()
console.log(`Load average (1 min) at the start: ${startLoad.toFixed(2)}`)

/** A count that one waiter at a time can wait on: `reached(n)` resolves once it is at least `n`. */
const waitableCount = () => {
  let value = 0
  let awaited: { readonly count: number; readonly resolve: () => void } | undefined
  return {
    get value() {
      return value
    },
    add: () => {
      value += 1
      if (awaited !== undefined && value >= awaited.count) {
        awaited.resolve()
        awaited = undefined
      }
    },
    reached: (count: number) =>
      value >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            awaited = { count, resolve }
          }),
  }
}

/** Requests the receiver has had, from both sides. */
const received = waitableCount()
const receiver = createServer(
  { keepAliveTimeout: idleConnectionMs, headersTimeout: idleConnectionMs + 1000 },
  (req, res) => {
    received.add()
    req.resume()
    req.on("end", () => res.writeHead(200).end())
  },
)
receiver.listen(0, "127.0.0.1")
await new Promise((resolve) => receiver.once("listening", resolve))
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
const transport = createHttpWebhookTransport({ allowLoopback: true })

type Body = { readonly event_id: string; readonly payload: string }

/**
 * `storage` with its transactions and reads held at a gate while it is shut: a runner over it
 * claims its jobs but does no work of them until the gate opens. Open, it costs nothing but a
 * count of the transactions and reads that have ended, which the bench waits on.
 */
const gatedStorage = (storage: Storage) => {
  let shut = false
  let opened: Promise<void> = Promise.resolve()
  let open = () => {}
  const ended = waitableCount()
  const gated = new Proxy(storage, {
    get: (target, key) => {
      const value = Reflect.get(target, key, target)
      if (typeof value !== "function") return value
      const method = value.bind(target)
      if (key !== "transaction" && key !== "read") return method
      return (work: unknown) => {
        const done = shut ? opened.then(() => method(work)) : method(work)
        done.then(ended.add, ended.add)
        return done
      }
    },
  })
  return {
    storage: gated,
    /** How many transactions and reads have ended, to wait on. */
    ended,
    shut: () => {
      shut = true
      opened = new Promise((resolve) => {
        open = resolve
      })
    },
    open: () => {
      shut = false
      open()
    },
  }
}

/**
 * The engine's side: one runner for the whole run, as a service has, on a storage held at a gate
 * while each slice's events are written (untimed) by another engine; the slice is timed from the
 * gate's opening until the last of them has been delivered, so a slice is a backlog of its size.
 */
const engineSide = async (storage: KyselyStorage) => {
  const gate = gatedStorage(storage)
  const writer = benchEngine(storage, { webhookTransport: transport })
  const engine = benchEngine(gate.storage, { webhookTransport: transport })
  const payer = await setUpPayer(writer, "bench-webhooks")
  await writer.webhookEndpoints.create(payer.actor, payer.companyId, { url, event_names: ["entity.updated"] })
  const entity = (await writer.entities.list(payer.actor, payer.companyId)).data[0]!
  let updates = 0
  // Compiled once: the look every few milliseconds is the bench's, not the engine's, yet in its time.
  const pendingCount = storage.db
    .selectFrom("webhook_deliveries")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("status", "=", "pending")
    .compile()
  const pending = async () => Number((await storage.db.executeQuery(pendingCount)).rows[0]?.n ?? 0)
  engine.jobs.start()
  return {
    prepare: async () => {
      gate.shut()
      for (let i = 0; i < slice; i++) {
        await writer.entities.update(payer.actor, payer.companyId, entity.id, { name: `Bench Entity ${updates++}` })
      }
    },
    run: async () => {
      const sent = received.value + slice
      gate.open()
      await received.reached(sent)
      for (;;) {
        const seen = gate.ended.value
        if ((await pending()) === 0) return slice
        await gate.ended.reached(seen + 1)
      }
    },
    stop: async () => {
      gate.open()
      await engine.jobs.stop()
    },
    /** The deliveries that took more than one attempt (a failed one is retried on the schedule, seconds later). */
    retried: async (): Promise<number> =>
      Number(
        (
          await storage.db
            .selectFrom("webhook_deliveries")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("attempt_count", ">", 1)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    /** The bodies delivered so far, for the plain loop. */
    bodies: (): Promise<ReadonlyArray<Body>> =>
      storage.db
        .selectFrom("webhook_deliveries")
        .select(["event_id", "payload"])
        .where("company_id", "=", payer.companyId)
        .limit(slice)
        .execute(),
  }
}

/** The limit: bodies signed and POSTed one after another, nothing stored. */
const plainLoop = (bodies: ReadonlyArray<Body>) => async () => {
  const secret = "whsec_benchbenchbenchbenchbenchbench12"
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
  return bodies.length
}

/** Both sides' figures, and how many of the engine's deliveries took a second attempt. */
interface Measured {
  readonly turns: Turns<"engine" | "limit">
  readonly retried: number
}

/** Both sides in turns, after untimed slices of each that warm up the code paths they share (signing, the HTTP client). */
const measure = async (storage: KyselyStorage): Promise<Measured> => {
  const engine = await engineSide(storage)
  await engine.prepare()
  await engine.run()
  const limit = plainLoop(await engine.bodies())
  for (let i = 0; i < warmUps; i++) {
    await limit()
    await engine.prepare()
    await engine.run()
  }
  const turns = await inTurns(rounds, { engine, limit })
  await engine.stop()
  return { turns, retried: await engine.retried() }
}

const rows: Array<{ name: string } & Measured> = []
{
  const folder = mkdtempSync(join(tmpdir(), "pe-bench-webhooks-"))
  const storage = kyselyStorageOf(await openSqliteStorage({ filename: join(folder, "webhooks.sqlite") }))
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
const endLoad = loadNow()
console.log(`Load average (1 min) at the end: ${endLoad.toFixed(2)}`)

const text = [
  "## Webhook deliveries",
  "",
  "`npm run bench` also runs `bench/webhook-delivery.bench.ts`.",
  `Measured ${new Date().toISOString().slice(0, 10)} on ${type()} ${process.arch}, ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"},`,
  `Node ${process.version}. ${loadLine(startLoad, endLoad)}`,
  "",
  `\`entity.updated\` events of one company with one endpoint, ${slice} a slice, written by one engine while the`,
  "transactions of another, whose job runner runs the whole run as in a service, wait at a gate (its runner claims the",
  "slice's first job, then waits); then the gate opens: deliveries a second until the last one has succeeded, each",
  "signed, POSTed to a receiver on 127.0.0.1 that answers 200 at once, and logged. The limit: as many bodies signed and",
  "POSTed one after another by a plain loop in one process through the same transport, nothing stored. The two take",
  `turns, ${rounds} rounds of a slice each (the order rotated each round), after ${warmUps + 1} untimed slices of each;`,
  "once the receiver has had a slice's requests, the engine's side looks whether every delivery of it is recorded as",
  "delivered, and again each time one of the engine's transactions has ended until it is. Figures are the sides'",
  "totals; the ratio is that of the totals, with the least and the most it was in one round in brackets. The last",
  "column counts the run's deliveries that took a second attempt: a failed attempt waits its retry, seconds later.",
  "Goal: at least 0.8 of the limit on both databases (issue 24), and 1,000 a second on SQLite.",
  "",
  "| Database | Deliveries/s | Plain signed POSTs/s (limit) | Deliveries / limit | Deliveries sent more than once |",
  "|---|---|---|---|---|",
  ...rows.map(
    ({ name, turns: t, retried }) =>
      `| ${name} | ${Math.round(t.totals.engine.perSecond)} | ${Math.round(t.totals.limit.perSecond)} | ${formatRatio(ratio(t, "engine", "limit"))} | ${retried} |`,
  ),
  "",
].join("\n")
writeResultsSection("## Webhook deliveries", text)
