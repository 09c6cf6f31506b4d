/** One delivery attempt: the exact bytes of `body` POSTed to `url` with `headers`. */
export interface WebhookRequest {
  readonly url: string
  readonly body: string
  /** The signature headers and the event id; the transport adds `Content-Type: application/json`. */
  readonly headers: Readonly<Record<string, string>>
  /** The whole attempt, connection to last byte read, ends after this long (30 s by the spec). */
  readonly timeoutMs: number
}

/** Why an attempt got no answer, in words fit for the endpoint's delivery log. */
export type WebhookFailure =
  | "timeout"
  | "address_not_allowed"
  | "dns_failure"
  | "connection_refused"
  | "connection_reset"
  | "tls_failure"
  | "invalid_url"
  | "network_error"

/** What one attempt came to. */
export type WebhookAttempt =
  | {
      readonly kind: "answered"
      readonly status: number
      readonly durationMs: number
      /** The start of the answer's body, at most a few kilobytes, for the delivery log. */
      readonly body: string
      /** The receiver answered with `webhook-delivery: abort-message`: stop retrying this delivery. */
      readonly abort: boolean
    }
  | { readonly kind: "failed"; readonly failure: WebhookFailure; readonly durationMs: number }

/**
 * Sends webhook deliveries. A transport follows no redirect (a 3xx is an answer like any other),
 * reads at most a small part of an answer's body, and refuses, on the address it actually
 * connects to, every host that is not a public unicast address (loopback, private, link-local,
 * unique-local, cloud metadata), so a URL whose name later resolves elsewhere cannot reach
 * inside. Never throws: every outcome is a {@link WebhookAttempt}.
 */
export interface WebhookTransport {
  send(request: WebhookRequest): Promise<WebhookAttempt>
  /**
   * Where the URL's host resolves now, as `send` would judge it: `address_not_allowed` when any
   * of its addresses is one `send` refuses, `unresolvable` when the name has no address (or the
   * lookup fails), else undefined. Endpoints are checked with it when made or changed; the
   * engine refuses both outside sandbox mode, and only the first in it.
   */
  checkUrl(url: string): Promise<"address_not_allowed" | "unresolvable" | undefined>
}
