const encoder = new TextEncoder()

/** Headers as Fetch, Node's `IncomingHttpHeaders` or a plain object carry them. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

const headerOf = (headers: WebhookHeaders, name: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  const wanted = name.toLowerCase()
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return typeof value === "string" ? value : value?.[0]
  }
  return undefined
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("")

/** Compares in a time that depends only on the lengths, so a forger learns nothing from timing. */
const sameText = (a: string, b: string): boolean => {
  let difference = a.length ^ b.length
  for (let i = 0; i < Math.max(a.length, b.length); i++) difference |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0)
  return difference === 0
}

/**
 * Whether a webhook delivery is signed with the endpoint's secret: its `Service-Signature` header
 * must be `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the `webhook_secret`.
 * Pass the body exactly as received (before any JSON parsing). Web Crypto only, so it runs in
 * Node, Deno, browsers and edge runtimes.
 *
 * @example
 * declare const rawBody: string, request: { headers: WebhookHeaders }, endpoint: { webhook_secret: string }
 * if (!(await verifyWebhook(rawBody, request.headers, endpoint.webhook_secret))) return 401
 */
export const verifyWebhook = async (
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
): Promise<boolean> => {
  const signature = headerOf(headers, "Service-Signature")
  if (signature === undefined || !signature.startsWith("sha256=")) return false
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ])
  const body = typeof payload === "string" ? encoder.encode(payload) : payload
  const expected = hex(await crypto.subtle.sign("HMAC", key, body as Uint8Array<ArrayBuffer>))
  return sameText(signature.slice("sha256=".length).toLowerCase(), expected)
}
