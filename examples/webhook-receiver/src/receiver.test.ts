import { once } from "node:events"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { createHttpWebhookTransport } from "@payments-engine/adapters"
import { webhookSignatureHeaders } from "@payments-engine/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ReceivedEvent, webhookReceiver } from "./receiver.ts"

const secret = "whsec_receiverexample0123456789abcd"
const handled: ReceivedEvent[] = []
let failNextHandling = false
const server = createServer(
  webhookReceiver({
    secret,
    onEvent: (event) => {
      if (failNextHandling) {
        failNextHandling = false
        throw new Error("database down")
      }
      handled.push(event)
    },
  }),
)
let url = ""
beforeAll(async () => {
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const transport = createHttpWebhookTransport({ allowLoopback: true })
const now = () => Math.floor(Date.now() / 1000)
/** A delivery as the engine sends it: the body's exact bytes, signed. */
const deliver = async (
  body: string,
  eventId: string,
  options: { timestamp?: number; sentBody?: string; strip?: boolean } = {},
) => {
  const signed = await webhookSignatureHeaders({
    body,
    eventId,
    timestamp: options.timestamp ?? now(),
    secrets: [secret],
  })
  const { "webhook-id": _id, "webhook-timestamp": _timestamp, "webhook-signature": _signature, ...stripped } = signed
  const headers = options.strip === true ? stripped : signed
  const attempt = await transport.send({ url, body: options.sentBody ?? body, headers, timeoutMs: 5000 })
  return attempt.kind === "answered" ? attempt.status : attempt.failure
}

describe("the webhook receiver example", () => {
  it("verifies the bytes as sent, whatever their JSON layout", async () => {
    // Not what JSON.stringify would make of it: a receiver that verifies a re-serialised body refuses it.
    const body = '{ "event" : "entity.created",\n  "name": "Caf\\u00e9 Ltd", "amount": 10.50 }'
    expect(await deliver(body, "evt_layout")).toBe(200)
    expect(handled.find((e) => e.id === "evt_layout")?.payload).toEqual(JSON.parse(body))
  })

  it("handles a signed delivery once, however often it comes", async () => {
    const body = '{"event":"PaymentEvents::CompletedEvent","resource_id":"pay_1"}'
    expect(await deliver(body, "evt_once")).toBe(200)
    expect(await deliver(body, "evt_once")).toBe(200)
    expect(handled.filter((e) => e.id === "evt_once")).toEqual([{ id: "evt_once", payload: JSON.parse(body) }])
  })

  it("refuses a body that is not the one signed, byte for byte, and a replay of an old delivery", async () => {
    const body = '{ "event": "PaymentEvents::FailedEvent",  "amount": "10.00" }'
    const reserialised = JSON.stringify(JSON.parse(body))
    expect(await deliver(body, "evt_changed", { sentBody: reserialised })).toBe(400)
    expect(await deliver(body, "evt_changed", { sentBody: body.replace("10.00", "99.00") })).toBe(400)
    expect(await deliver(body, "evt_old", { timestamp: now() - 3600 })).toBe(400)
    expect(handled.map((e) => e.id)).not.toContain("evt_changed")
    expect(handled.map((e) => e.id)).not.toContain("evt_old")
  })

  it("refuses an old delivery replayed with its timestamped headers stripped (a downgrade to Service-Signature)", async () => {
    const body = '{"event":"PaymentEvents::CompletedEvent","resource_id":"pay_replayed"}'
    expect(await deliver(body, "evt_stripped", { timestamp: now() - 3600 })).toBe(400)
    expect(await deliver(body, "evt_stripped", { timestamp: now() - 3600, strip: true })).toBe(400)
    expect(handled.map((e) => e.id)).not.toContain("evt_stripped")
  })

  it("answers 500 when handling fails, so the sender retries, and handles the retry", async () => {
    const body = '{"event":"PaymentBatchCompletedEvent"}'
    failNextHandling = true
    expect(await deliver(body, "evt_retried")).toBe(500)
    expect(await deliver(body, "evt_retried")).toBe(200)
    expect(handled.filter((e) => e.id === "evt_retried")).toHaveLength(1)
  })
})
