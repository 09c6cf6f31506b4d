/**
 * Signatures of webhook deliveries, in the two forms every delivery carries:
 *
 * - the spec's `Service-Signature: sha256=<hex>`, an HMAC-SHA256 of the raw body keyed with the
 *   endpoint's secret as it was shown (its UTF-8 bytes);
 * - Standard Webhooks' `webhook-id`, `webhook-timestamp` (Unix seconds) and
 *   `webhook-signature: v1,<base64>`, an HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed with the
 *   secret's bytes after `whsec_` read as base64, as that specification's libraries read them, so
 *   a receiver can use any of them and refuse replays by the timestamp.
 *
 * Only WebCrypto (`crypto.subtle`), which Node, Deno, Bun, browsers and edge runtimes all have.
 */

/** How far a delivery's `webhook-timestamp` may be from the receiver's clock, by default: five minutes. */
export const defaultWebhookToleranceSeconds = 5 * 60

const encoder = new TextEncoder()

/** Bytes WebCrypto takes: backed by an ArrayBuffer, not a shared one. */
type Bytes = Uint8Array<ArrayBuffer>

const standardPrefix = "whsec_"

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("")

const base64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)))

/** Bytes of a base64 text, or undefined when it is not base64. */
const fromBase64 = (text: string): Bytes | undefined => {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
}

/** Bytes of a hex text, or undefined when it is not hex. */
const fromHex = (text: string): Bytes | undefined => {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(text)) return undefined
  return Uint8Array.from({ length: text.length / 2 }, (_, i) => Number.parseInt(text.slice(i * 2, i * 2 + 2), 16))
}

const importHmacKey = (secret: Bytes, usage: "sign" | "verify") =>
  crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, [usage])

/** Signing keys by secret and form: a sender signs every delivery of an endpoint with the same few. */
const signingKeys = new Map<string, Promise<CryptoKey>>()
/** Endpoints whose keys stay imported at once; past it the cache starts over. */
const signingKeysKept = 1024

const signingKey = (secret: string, form: "service" | "standard") => {
  const id = `${form}\u0000${secret}`
  let key = signingKeys.get(id)
  if (key === undefined) {
    if (signingKeys.size >= signingKeysKept) signingKeys.clear()
    key = importHmacKey(form === "service" ? serviceKey(secret) : standardKey(secret), "sign")
    signingKeys.set(id, key)
  }
  return key
}

/** The key of `Service-Signature`: the secret as it was shown. */
const serviceKey = (secret: string) => encoder.encode(secret)

/** The key of `webhook-signature`: the base64 after `whsec_`, as Standard Webhooks reads a secret. */
const standardKey = (secret: string) => {
  const decoded = secret.startsWith(standardPrefix) ? fromBase64(secret.slice(standardPrefix.length)) : undefined
  return decoded !== undefined && decoded.length > 0 ? decoded : encoder.encode(secret)
}

const concat = (...parts: ReadonlyArray<Bytes>): Bytes => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/** What Standard Webhooks signs: `<id>.<timestamp>.` and the raw body. */
const standardContent = (eventId: string, timestamp: string, body: Bytes) =>
  concat(encoder.encode(`${eventId}.${timestamp}.`), body)

const bytesOf = (body: string | Uint8Array): Bytes =>
  typeof body === "string" ? encoder.encode(body) : new Uint8Array(body)

/** The headers that sign one delivery. */
export type WebhookSignatureHeaders = {
  readonly "Service-Signature": string
  readonly "Service-Event-Id": string
  readonly "webhook-id": string
  readonly "webhook-timestamp": string
  readonly "webhook-signature": string
}

/**
 * The signature headers of a delivery of `body` (the exact bytes sent) for event `eventId` at
 * `timestamp` (Unix seconds). `secrets` are the endpoint's live secrets, newest first: the
 * newest signs `Service-Signature`, and each signs one entry of `webhook-signature`, so for the
 * 24 hours after a rotation a receiver holding either secret can verify the delivery.
 *
 * @example
 * declare const body: string
 * const headers = await webhookSignatureHeaders({ body, eventId: "evt_1", timestamp: 1767225600, secrets: [secret] })
 */
export const webhookSignatureHeaders = async (delivery: {
  readonly body: string | Uint8Array
  readonly eventId: string
  readonly timestamp: number
  readonly secrets: readonly [string, ...string[]]
}): Promise<WebhookSignatureHeaders> => {
  const body = bytesOf(delivery.body)
  const timestamp = String(Math.floor(delivery.timestamp))
  const content = standardContent(delivery.eventId, timestamp, body)
  const [newest] = delivery.secrets
  const service = await crypto.subtle.sign("HMAC", await signingKey(newest, "service"), body)
  const standard = await Promise.all(
    delivery.secrets.map(async (secret) =>
      base64(await crypto.subtle.sign("HMAC", await signingKey(secret, "standard"), content)),
    ),
  )
  return {
    "Service-Signature": `sha256=${hex(service)}`,
    "Service-Event-Id": delivery.eventId,
    "webhook-id": delivery.eventId,
    "webhook-timestamp": timestamp,
    "webhook-signature": standard.map((signature) => `v1,${signature}`).join(" "),
  }
}

/** Request headers as a receiver has them: fetch's `Headers`, Node's `req.headers`, or a plain record. */
export type ReceivedHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

const headerOf = (headers: ReceivedHeaders, name: string): string | undefined => {
  if (typeof headers.get === "function") return (headers as { get(name: string): string | null }).get(name) ?? undefined
  const wanted = name.toLowerCase()
  for (const [key, value] of Object.entries(headers as Record<string, string | ReadonlyArray<string> | undefined>)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue
    return typeof value === "string" ? value : value.join(",")
  }
  return undefined
}

/** What {@link verifyWebhookSignature} found. */
export type WebhookVerification =
  | {
      readonly valid: true
      /** `Service-Event-Id` (the same as `webhook-id`): de-duplicate deliveries by it. */
      readonly eventId: string | undefined
      /** Which header verified: the timestamped one whenever it is there. */
      readonly by: "webhook-signature" | "Service-Signature"
    }
  | { readonly valid: false; readonly reason: string }

const refused = (reason: string): WebhookVerification => ({ valid: false, reason })

/** Options of {@link verifyWebhookSignature}. */
export interface WebhookVerificationOptions {
  /** How far `webhook-timestamp` may be from `now`, in seconds; five minutes by default. */
  readonly toleranceSeconds?: number
  /** The receiver's time; the system clock by default. */
  readonly now?: Date
  /**
   * Refuses a delivery without the timestamped `webhook-signature`. `Service-Signature` has no
   * timestamp, so without this a captured delivery replayed with its `webhook-*` headers stripped
   * verifies forever. Every delivery of this engine carries both: a receiver of its deliveries
   * should set it.
   */
  readonly requireTimestamp?: boolean
}

/**
 * Checks that a delivery was signed with `secret`, against the raw bytes of its body as they
 * arrived (a body parsed and serialised again is not the body that was signed). When the
 * delivery has Standard Webhooks headers, they decide: the timestamp must be within
 * `toleranceSeconds` of `now` (a replayed old delivery is refused) and one `v1` signature must
 * match; otherwise `Service-Signature` must match, unless `requireTimestamp` refuses any
 * delivery without them. Comparisons run in constant time (`crypto.subtle.verify`).
 *
 * @example
 * import express from "express"
 * const app = express()
 * app.post("/webhooks", express.raw({ type: "application/json" }), async (req, res) => {
 *   const check = await verifyWebhookSignature(req.body, req.headers, process.env.WEBHOOK_SECRET!, { requireTimestamp: true })
 *   if (!check.valid) return res.status(400).send(check.reason)
 *   // ... handle JSON.parse(req.body), de-duplicated by check.eventId
 *   res.status(200).end()
 * })
 */
export const verifyWebhookSignature = async (
  rawBody: string | Uint8Array,
  headers: ReceivedHeaders,
  secret: string,
  options: WebhookVerificationOptions = {},
): Promise<WebhookVerification> => {
  const body = bytesOf(rawBody)
  const eventId = headerOf(headers, "Service-Event-Id") ?? headerOf(headers, "webhook-id")
  const standard = headerOf(headers, "webhook-signature")
  if (standard !== undefined) {
    const id = headerOf(headers, "webhook-id")
    const timestamp = headerOf(headers, "webhook-timestamp")
    if (id === undefined || timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) {
      return refused("webhook-signature needs webhook-id and a webhook-timestamp in Unix seconds")
    }
    const now = Math.floor((options.now ?? new Date()).getTime() / 1000)
    const tolerance = options.toleranceSeconds ?? defaultWebhookToleranceSeconds
    if (Math.abs(now - Number(timestamp)) > tolerance) return refused("webhook-timestamp is outside the tolerance")
    const key = await importHmacKey(standardKey(secret), "verify")
    const content = standardContent(id, timestamp, body)
    for (const entry of standard.split(" ")) {
      const [version, signature] = entry.split(",", 2)
      const bytes = version === "v1" && signature !== undefined ? fromBase64(signature) : undefined
      if (bytes !== undefined && (await crypto.subtle.verify("HMAC", key, bytes, content))) {
        return { valid: true, eventId: eventId ?? id, by: "webhook-signature" }
      }
    }
    return refused("no webhook-signature matches the secret")
  }
  if (options.requireTimestamp === true) {
    return refused("the delivery carries no webhook-signature, and a timestamped signature is required")
  }
  const service = headerOf(headers, "Service-Signature")
  if (service === undefined) return refused("the delivery carries no signature")
  const digest = service.startsWith("sha256=") ? fromHex(service.slice("sha256=".length)) : undefined
  if (digest === undefined) return refused("Service-Signature is not sha256=<hex>")
  const key = await importHmacKey(serviceKey(secret), "verify")
  if (!(await crypto.subtle.verify("HMAC", key, digest, body)))
    return refused("Service-Signature does not match the secret")
  return { valid: true, eventId, by: "Service-Signature" }
}
