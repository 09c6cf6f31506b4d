import type { IncomingMessage, ServerResponse } from "node:http"
import { verifyWebhookSignature } from "@payments-engine/core"

/** A delivered event, verified and parsed. */
export interface ReceivedEvent {
  /** `Service-Event-Id`: the same on every retry of one delivery. */
  readonly id: string
  readonly payload: unknown
}

/** What {@link webhookReceiver} needs. */
export interface WebhookReceiverOptions {
  /** The endpoint's `webhook_secret`, shown once when the endpoint was made. */
  readonly secret: string
  /** Handles one event; it runs once per event id, however often the event is delivered. */
  readonly onEvent: (event: ReceivedEvent) => Promise<void> | void
  /**
   * Remembers event ids already handled. In memory by default, which a restart forgets: a real
   * receiver keeps them where it keeps what the events change (a unique key on the event id, in
   * the same transaction as the handling).
   */
  readonly seen?: { has(id: string): boolean | Promise<boolean>; add(id: string): unknown }
  /** Largest body read, in bytes: 1 MiB by default. */
  readonly maxBodyBytes?: number
}

/** The raw bytes of a request's body, or undefined past `limit`. */
const rawBody = async (request: IncomingMessage, limit: number): Promise<Buffer | undefined> => {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > limit) return undefined
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

const answer = (response: ServerResponse, status: number, text: string) => {
  response.writeHead(status, { "Content-Type": "text/plain" }).end(text)
}

/**
 * A Node request handler for webhook deliveries. It verifies the timestamped signature
 * (`webhook-signature`, within five minutes) against the body's raw bytes, before any parsing: the classic failure is to verify `JSON.stringify(req.body)`
 * after a JSON middleware, which is not the byte string that was signed. A valid delivery of an
 * event already handled is answered 200 and not handled again (deliveries are at least once);
 * only 200 tells the sender a delivery succeeded, so an error while handling answers 500 and the
 * sender retries.
 *
 * @example
 * createServer(webhookReceiver({ secret: process.env.WEBHOOK_SECRET!, onEvent: ({ payload }) => console.log(payload) }))
 *   .listen(4000)
 */
export const webhookReceiver = (options: WebhookReceiverOptions) => {
  const seen = options.seen ?? new Set<string>()
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (request.method !== "POST") return answer(response, 405, "POST only")
    const body = await rawBody(request, options.maxBodyBytes ?? 1024 * 1024)
    if (body === undefined) return answer(response, 413, "body too large")
    // Every delivery carries the timestamped signature: one without it was stripped to replay it.
    const check = await verifyWebhookSignature(body, request.headers, options.secret, { requireTimestamp: true })
    if (!check.valid || check.eventId === undefined) {
      return answer(response, 400, check.valid ? "no event id" : check.reason)
    }
    if (await seen.has(check.eventId)) return answer(response, 200, "already handled")
    try {
      await options.onEvent({ id: check.eventId, payload: JSON.parse(body.toString("utf8")) })
    } catch {
      return answer(response, 500, "not handled")
    }
    seen.add(check.eventId)
    answer(response, 200, "handled")
  }
}
