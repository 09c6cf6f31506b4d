import { once } from "node:events"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { verifyWebhookSignature } from "@payments-engine/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { processRig } from "./support/process-rig.ts"
import { deliveryStatusesOf, queueWebhookDeliveries, queuingServerSecret } from "./support/queued-payments.ts"

/*
 * A service killed with SIGKILL while it is sending webhooks, then started again on the same
 * database: every event reaches the receiver, signed, within 30 s of the restart (at least once:
 * what was in flight is sent again), and every delivery ends succeeded.
 */

const { folder, running, serverUrl, postgresUrl, startRecordingService: start } = processRig("webhook-crash")
const deliveries = 30
/** The request the receiver never answers, the first time it comes: the service is killed meanwhile. */
const hangOn = 5

interface Received {
  readonly eventId: string
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

let received: Array<Received> = []
const receiver = createServer(async (req, res) => {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  received.push({ eventId: String(req.headers["service-event-id"]), headers: req.headers, body: Buffer.concat(chunks) })
  if (received.length === hangOn) return
  res.writeHead(200).end()
})
let url = ""
beforeAll(async () => {
  receiver.listen(0, "127.0.0.1")
  await once(receiver, "listening")
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
})
afterAll(() => {
  receiver.closeAllConnections()
  receiver.close()
})

const until = async (done: () => boolean | Promise<boolean>, timeoutMs: number) => {
  const since = Date.now()
  while (!(await done()) && Date.now() - since < timeoutMs) await new Promise((resolve) => setTimeout(resolve, 50))
}

const crashMidDelivery = async (databaseUrl: string) => {
  received = []
  const { secret } = await queueWebhookDeliveries(databaseUrl, url, deliveries, "webhook-crash")
  const env = {
    DATABASE_URL: databaseUrl,
    PAYMENTS_SANDBOX: "true",
    PAYMENTS_JWT_SECRET: queuingServerSecret,
    PROVIDER_BOOK: join(folder, `book-${Date.now()}.txt`),
  }
  const first = await start(env)
  // The hung request holds its lane: killed now, the service has recorded no attempt of it.
  await until(() => received.length >= hangOn, 30_000)
  expect(received.length).toBeGreaterThanOrEqual(hangOn)
  first.child.kill("SIGKILL")
  await first.exited
  running.delete(first)
  expect(await deliveryStatusesOf(databaseUrl)).toContain("pending")

  const second = await start(env)
  const restarted = Date.now()
  const allSucceeded = async () => (await deliveryStatusesOf(databaseUrl)).every((status) => status === "succeeded")
  await until(allSucceeded, 30_000)
  expect(await deliveryStatusesOf(databaseUrl)).toEqual(Array.from({ length: deliveries }, () => "succeeded"))
  expect(Date.now() - restarted).toBeLessThan(30_000)
  // Nothing lost: every event came, each copy signed for its exact bytes.
  expect(new Set(received.map((r) => r.eventId)).size).toBe(deliveries)
  for (const { body, headers } of received) {
    expect(await verifyWebhookSignature(body, headers, secret)).toMatchObject({ valid: true })
  }
  second.child.kill("SIGTERM")
  await second.exited
  running.delete(second)
}

describe("a service killed with SIGKILL while sending webhooks", () => {
  it("on SQLite, sends every event after the restart, none lost, and every delivery succeeds", async () => {
    await crashMidDelivery(`sqlite:${join(folder, "webhook-crash.sqlite")}`)
  }, 90_000)

  it.skipIf(serverUrl === undefined)(
    "on Postgres (graphile-worker), sends every event within 30 s of the restart, none lost",
    async () => {
      await crashMidDelivery(postgresUrl("webhook_crash"))
    },
    120_000,
  )
})
