import fc from "fast-check"
import { Webhook } from "standardwebhooks"
import { describe, expect, it } from "vitest"
import { verifyWebhookSignature, webhookSignatureHeaders } from "./webhook-signature.ts"

const secret = "whsec_0a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p"
const rotated = "whsec_zyxwvutsrqponmlkjihgfedcba987654"
const at = new Date("2030-01-01T00:00:00Z")
const seconds = at.getTime() / 1000

const body = fc.oneof(fc.string(), fc.uint8Array({ maxLength: 256 }))
const eventId = fc.stringMatching(/^evt_[0-9a-z]{1,24}$/)

const sign = (raw: string | Uint8Array, id = "evt_1", timestamp = seconds, secrets: [string, ...string[]] = [secret]) =>
  webhookSignatureHeaders({ body: raw, eventId: id, timestamp, secrets })

describe("webhook signatures", () => {
  it("signs Service-Signature as the spec says: sha256= and the hex HMAC-SHA256 of the raw body under the secret", async () => {
    // The HMAC-SHA256 example of RFC 4231's neighbour, Wikipedia: key "key", the quick brown fox.
    const fox = await webhookSignatureHeaders({
      body: "The quick brown fox jumps over the lazy dog",
      eventId: "evt_1",
      timestamp: seconds,
      secrets: ["key"],
    })
    expect(fox["Service-Signature"]).toBe("sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8")
    const headers = await sign("{}")
    expect(headers["Service-Event-Id"]).toBe("evt_1")
    expect(headers["webhook-id"]).toBe("evt_1")
    expect(headers["webhook-timestamp"]).toBe(String(seconds))
  })

  it("signs webhook-signature so that the Standard Webhooks library verifies it with the same secret", async () => {
    await fc.assert(
      fc.asyncProperty(fc.json(), eventId, async (raw, id) => {
        const headers = await sign(raw, id, Math.floor(Date.now() / 1000))
        expect(new Webhook(secret).verify(raw, { ...headers })).toEqual(JSON.parse(raw))
        expect(() => new Webhook(rotated).verify(raw, { ...headers })).toThrow()
      }),
      { numRuns: 25 },
    )
  })

  it("verifies what it signs, by either header, from bytes or text, with fetch Headers or Node's lower-case record", async () => {
    await fc.assert(
      fc.asyncProperty(body, eventId, async (raw, id) => {
        const headers = await sign(raw, id)
        const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
        const { "Service-Signature": service, "Service-Event-Id": event } = headers
        for (const received of [headers, lower, new Headers(headers)]) {
          expect(await verifyWebhookSignature(raw, received, secret, { now: at })).toEqual({
            valid: true,
            eventId: id,
            by: "webhook-signature",
          })
        }
        expect(
          await verifyWebhookSignature(raw, { "Service-Signature": service, "Service-Event-Id": event }, secret),
        ).toEqual({ valid: true, eventId: id, by: "Service-Signature" })
      }),
      { numRuns: 50 },
    )
  })

  it("refuses a body changed by one byte, another secret, and a re-serialised body", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 128 }), fc.nat(), async (raw, at_) => {
        const headers = await sign(raw)
        const changed = Uint8Array.from(raw)
        const i = at_ % raw.length
        changed[i] = (changed[i]! + 1) % 256
        const { "Service-Signature": service } = headers
        for (const received of [headers, { "Service-Signature": service }]) {
          expect((await verifyWebhookSignature(changed, received, secret, { now: at })).valid).toBe(false)
          expect((await verifyWebhookSignature(raw, received, rotated, { now: at })).valid).toBe(false)
        }
      }),
      { numRuns: 50 },
    )
    const raw = '{ "amount": "10.00",  "currency": "USD" }'
    const headers = await sign(raw)
    const reserialised = JSON.stringify(JSON.parse(raw))
    expect(await verifyWebhookSignature(reserialised, headers, secret, { now: at })).toEqual({
      valid: false,
      reason: "no webhook-signature matches the secret",
    })
  })

  it("refuses a delivery whose timestamp is outside the tolerance, or was changed, so a replay is refused", async () => {
    const raw = "{}"
    const headers = await sign(raw)
    const later = (s: number) => new Date(at.getTime() + s * 1000)
    expect((await verifyWebhookSignature(raw, headers, secret, { now: later(300) })).valid).toBe(true)
    expect(await verifyWebhookSignature(raw, headers, secret, { now: later(301) })).toEqual({
      valid: false,
      reason: "webhook-timestamp is outside the tolerance",
    })
    expect((await verifyWebhookSignature(raw, headers, secret, { now: later(-301) })).valid).toBe(false)
    expect(
      (await verifyWebhookSignature(raw, headers, secret, { now: later(3600), toleranceSeconds: 3600 })).valid,
    ).toBe(true)
    const moved = { ...headers, "webhook-timestamp": String(seconds + 1) }
    expect((await verifyWebhookSignature(raw, moved, secret, { now: at })).valid).toBe(false)
    const { "webhook-timestamp": _, ...untimed } = headers
    expect((await verifyWebhookSignature(raw, untimed, secret, { now: at })).valid).toBe(false)
  })

  it("refuses a captured delivery replayed with its webhook-* headers stripped when told to require the timestamp", async () => {
    const raw = '{"event":"PaymentEvents::CompletedEvent","resource_id":"pay_1"}'
    const captured = await sign(raw)
    const {
      "webhook-id": _id,
      "webhook-timestamp": _timestamp,
      "webhook-signature": _signature,
      ...stripped
    } = captured
    const dayLater = new Date(at.getTime() + 86_400_000)
    // The downgrade: the whole delivery a day later is refused, the stripped one still verifies.
    expect((await verifyWebhookSignature(raw, captured, secret, { now: dayLater })).valid).toBe(false)
    expect(await verifyWebhookSignature(raw, stripped, secret, { now: dayLater })).toEqual({
      valid: true,
      eventId: "evt_1",
      by: "Service-Signature",
    })
    expect(await verifyWebhookSignature(raw, stripped, secret, { now: dayLater, requireTimestamp: true })).toEqual({
      valid: false,
      reason: "the delivery carries no webhook-signature, and a timestamped signature is required",
    })
    // Required, a fresh delivery still verifies by its timestamped signature, and only within the window.
    expect(await verifyWebhookSignature(raw, captured, secret, { now: at, requireTimestamp: true })).toEqual({
      valid: true,
      eventId: "evt_1",
      by: "webhook-signature",
    })
    expect((await verifyWebhookSignature(raw, captured, secret, { now: dayLater, requireTimestamp: true })).valid).toBe(
      false,
    )
  })

  it("signs with every live secret after a rotation: the newest in Service-Signature, each in webhook-signature", async () => {
    const raw = '{"n":1}'
    const headers = await sign(raw, "evt_2", seconds, [rotated, secret])
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2)
    for (const held of [rotated, secret]) {
      expect((await verifyWebhookSignature(raw, headers, held, { now: at })).valid).toBe(true)
    }
    const { "Service-Signature": service } = headers
    expect((await verifyWebhookSignature(raw, { "Service-Signature": service }, rotated)).valid).toBe(true)
    expect((await verifyWebhookSignature(raw, { "Service-Signature": service }, secret)).valid).toBe(false)
  })

  it("answers unsigned or malformed headers with a reason, never a throw", async () => {
    const cases: ReadonlyArray<Record<string, string>> = [
      {},
      { "Service-Signature": "md5=abc" },
      { "Service-Signature": "sha256=zz" },
      { "webhook-signature": "v1,abc" },
      { "webhook-signature": "v1,!!!", "webhook-id": "evt_1", "webhook-timestamp": String(seconds) },
      { "webhook-signature": "v2,abcd", "webhook-id": "evt_1", "webhook-timestamp": "soon" },
    ]
    for (const headers of cases) {
      expect(await verifyWebhookSignature("{}", headers, secret, { now: at })).toMatchObject({ valid: false })
    }
  })
})
