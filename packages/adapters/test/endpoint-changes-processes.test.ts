import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { testServerSecret } from "@payments-engine/contract-tests"
import { createEngine, type Engine, type WebhookDelivery } from "@payments-engine/core"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import {
  createHttpWebhookTransport,
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  randomIds,
  scryptHasher,
  systemClock,
} from "../src/index.ts"
import type { KyselyStorage } from "../src/kysely.ts"
import { graphileWorkerSchema, openPostgresStorage } from "../src/postgres.ts"
import { setUpPayer } from "../src/testing/index.ts"

/**
 * Two engine processes on one Postgres schema: this one deactivates an endpoint while a lane of
 * the other (test/support/lane-process.ts) is sending its deliveries. What is promised: once the
 * other process is told (its LISTEN session hears the NOTIFY sent after the commit), its lane
 * starts no further send; what it had handed to the receiver before is answered and logged.
 */
const connectionString = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : undefined
const schema = `pe_lane_processes_${process.pid}`

/** The receiver holds the first ten requests until the test answers them; later ones it answers 200. */
const held: Array<ServerResponse> = []
let requests = 0
const receiver = createServer((req, res) => {
  req.resume()
  req.on("end", () => {
    requests += 1
    if (requests <= 10) held.push(res)
    else res.writeHead(200).end()
  })
})

describe.skipIf(connectionString === undefined)("a lane of another engine process", () => {
  let storage: KyselyStorage
  let engine: Engine
  let other: ChildProcess
  let output = ""
  beforeAll(async () => {
    receiver.listen(0, "127.0.0.1")
    await once(receiver, "listening")
    storage = await openPostgresStorage({ connectionString: connectionString!, schema })
    engine = createEngine({
      storage,
      clock: systemClock,
      ids: randomIds(),
      hasher: scryptHasher(),
      serverSecret: testServerSecret,
      paymentProvider: createSandboxPaymentProvider(),
      bankLinker: createSandboxBankLinker(),
      webhookTransport: createHttpWebhookTransport({ allowLoopback: true }),
      allowLocalWebhookUrls: true,
    })
  })
  afterAll(async () => {
    other?.kill("SIGTERM")
    if (other !== undefined && other.exitCode === null) await once(other, "exit")
    receiver.closeAllConnections()
    receiver.close()
    for (const each of [schema, graphileWorkerSchema(schema)]) {
      await storage.db.schema.dropSchema(each).ifExists().cascade().execute()
    }
    await engine.close()
  })

  it("sends nothing more of what it holds once told that the endpoint was deactivated here", async () => {
    const payer = await setUpPayer(engine, "lane-processes")
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
    const endpoint = await engine.webhookEndpoints.create(payer.actor, payer.companyId, {
      url,
      event_names: ["entity.updated"],
    })
    const entity = (await engine.entities.list(payer.actor, payer.companyId)).data[0]!
    for (let i = 0; i < 12; i++) {
      await engine.entities.update(payer.actor, payer.companyId, entity.id, { name: `Lane ${i}` })
    }

    // The other process runs the jobs: one lane takes all twelve and sends ten at once, which the receiver holds.
    const script = fileURLToPath(new URL("./support/lane-process.ts", import.meta.url))
    other = spawn(process.execPath, ["--conditions=source", "--import", "tsx", script, connectionString!, schema], {
      stdio: ["ignore", "pipe", "inherit"],
    })
    other.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    await vi.waitFor(() => expect(held).toHaveLength(10), { timeout: 60_000, interval: 20 })

    await engine.webhookEndpoints.toggle(payer.actor, payer.companyId, endpoint.id)
    await vi.waitFor(() => expect(output).toContain(`told ${endpoint.id}`), { timeout: 30_000, interval: 20 })
    for (const res of held.splice(0)) res.writeHead(500).end()

    const deliveries = async () =>
      (await engine.webhookDeliveries.list(payer.actor, payer.companyId, endpoint.id))
        .data as ReadonlyArray<WebhookDelivery>
    await vi.waitFor(
      async () =>
        expect((await deliveries()).filter((d) => d.attempt_count === 0 && d.state === "pending")).toEqual([]),
      { timeout: 30_000, interval: 50 },
    )
    // The two it had not sent when told are never sent: they fail unsent.
    expect(requests).toBe(10)
    const unsent = (await deliveries()).filter((d) => d.attempt_count === 0)
    expect(unsent).toHaveLength(2)
    for (const d of unsent) {
      expect(d.state).toBe("failed")
      expect(d.attempts.at(-1)).toMatchObject({ error: "endpoint_disabled" })
    }
  }, 120_000)
})
