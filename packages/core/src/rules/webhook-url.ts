/** Where an endpoint may be: what {@link webhookUrlProblem} allows besides `https:`. */
export interface WebhookUrlPolicy {
  /** Sandbox mode: `http://localhost` and `http://127.0.0.1` (any port) for local receivers. */
  readonly allowLocalHttp: boolean
}

/** The messages of URL problems; `https` is the spec's own. */
export const webhookUrlMessages = {
  required: "URL is required",
  tooLong: "URL must be at most 2048 characters",
  malformed: "URL is not a valid absolute URL",
  https: "URL must use HTTPS",
  credentials: "URL must not contain a user name or password",
} as const

/** Longest URL an endpoint may have, as browsers and Stripe bound them. */
export const maxWebhookUrlLength = 2048

const localHosts = new Set(["localhost", "127.0.0.1"])

/**
 * What is wrong with `text` as the URL of a webhook endpoint, by its text alone, or undefined when
 * nothing is: an absolute `https:` URL without user info (DECISIONS "URL safety"); in sandbox mode
 * also `http:` to localhost or 127.0.0.1. Where the host resolves to is not looked at here: that
 * check needs DNS, so it belongs to a port the service asks after this rule passes (see
 * `services/webhook-endpoints.ts`, `checkUrl`).
 *
 * @example
 * webhookUrlProblem("http://example.com/hook", { allowLocalHttp: false }) // "URL must use HTTPS"
 */
export const webhookUrlProblem = (text: string, policy: WebhookUrlPolicy): string | undefined => {
  if (text.trim() === "") return webhookUrlMessages.required
  if (text.length > maxWebhookUrlLength) return webhookUrlMessages.tooLong
  // The URL parser drops surrounding spaces and control characters; the stored URL would keep them.
  if (text !== text.trim() || [...text].some((c) => c < " " || c === "\u007f")) return webhookUrlMessages.malformed
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return webhookUrlMessages.malformed
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return webhookUrlMessages.https
  if (url.hostname === "") return webhookUrlMessages.malformed
  if (url.username !== "" || url.password !== "") return webhookUrlMessages.credentials
  if (url.protocol === "http:" && !(policy.allowLocalHttp && localHosts.has(url.hostname))) {
    return webhookUrlMessages.https
  }
  return undefined
}
