import createClient, { type Client } from "openapi-fetch"
import { PaymentsApiError } from "./errors.ts"
import type { paths } from "./generated/api.ts"

/** Options of {@link createPaymentsClient}. */
export interface PaymentsClientOptions {
  /** Where the service is, e.g. `https://payments.example.com` or a mount path under it; paths start with `/api/v1`. */
  readonly baseUrl: string
  /** The API key's id (`api_key`), exchanged with its secret for bearer tokens. */
  readonly apiKey: string
  /** The API key's secret (`api_secret`); sent only to `POST /api/v1/sessions`. */
  readonly apiSecret: string
  /** The fetch to send with (a test's, a proxy agent's); the global one by default. */
  readonly fetch?: (request: Request) => Promise<Response>
  /** Retries of a request refused with 429 or lost to a network error; 3 by default. */
  readonly maxRetries?: number
  /** The first backoff when no `Retry-After` says how long to wait, doubled on each retry; 250 ms by default. */
  readonly backoffMs?: number
  /** Milliseconds since the epoch, to tell when the bearer token expires; `Date.now` by default. */
  readonly now?: () => number
}

/** The typed client: openapi-fetch's, with sessions, idempotency keys, retries and typed errors. */
export type PaymentsClient = Client<paths>

/** How long before its expiry a token is replaced, so a request never leaves with a dying one. */
const refreshMarginMs = 30_000

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Whether sending the request twice does it once: reads, and writes carrying an idempotency key. */
const safeToRetry = (request: Request) =>
  request.method === "GET" || request.method === "HEAD" || request.headers.has("Idempotency-Key")

/** `Retry-After` in milliseconds, from seconds or an HTTP date; undefined when absent or unreadable. */
const retryAfterMs = (response: Response, now: number): number | undefined => {
  const value = response.headers.get("Retry-After")
  if (value === null) return undefined
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/**
 * A typed client of the payments service. It opens a session with the API key on the first
 * request and replaces the bearer token shortly before it expires, or once when a request comes
 * back 401; it sends an `Idempotency-Key` (a random UUID) on every POST and PATCH that has none;
 * it retries, with backoff, a request refused with 429 (after its `Retry-After`) or lost to a
 * network error, when sending it again is safe (GET, or a write with an idempotency key); and any
 * answer that is not a success is thrown as a {@link PaymentsApiError}.
 *
 * @example
 * declare const baseUrl: string, apiKey: string, apiSecret: string
 * const client = createPaymentsClient({ baseUrl, apiKey, apiSecret })
 * const company = await dataOf(client.POST("/api/v1/companies", { body: { name: "Acme", country: "FR", default_currency: "EUR" } }))
 */
export const createPaymentsClient = (options: PaymentsClientOptions): PaymentsClient => {
  const send = options.fetch ?? ((request: Request) => fetch(request))
  const maxRetries = options.maxRetries ?? 3
  const backoffMs = options.backoffMs ?? 250
  const now = options.now ?? Date.now

  /** Sends the request, again when it was refused with 429 or lost, as long as that is safe. */
  const sendWithRetries = async (request: Request): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      const retrying = attempt < maxRetries && safeToRetry(request)
      let response: Response
      try {
        response = await send(request.clone())
      } catch (error) {
        if (!retrying) throw error
        await wait(backoffMs * 2 ** attempt)
        continue
      }
      if (response.status !== 429 || !retrying) return response
      await response.body?.cancel()
      await wait(retryAfterMs(response, now()) ?? backoffMs * 2 ** attempt)
    }
  }

  let session: Promise<{ token: string; expiresAt: number }> | undefined
  const openSession = async () => {
    const startedAt = now()
    const response = await sendWithRetries(
      new Request(`${options.baseUrl.replace(/\/$/, "")}/api/v1/sessions`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ api_key: options.apiKey, api_secret: options.apiSecret }),
      }),
    )
    if (!response.ok) throw await PaymentsApiError.of(response)
    const { data } = (await response.json()) as { data: { access_token: string; expires_in: number } }
    // From our own clock and the lifetime, not the server's expires_at: clocks may differ.
    return { token: data.access_token, expiresAt: startedAt + data.expires_in * 1000 }
  }
  /** The current token, from a new session when there is none or it expires within the margin. */
  const token = async (): Promise<string> => {
    const pending = session
    const current = pending === undefined ? undefined : await pending.catch(() => undefined)
    if (current !== undefined && current.expiresAt - refreshMarginMs > now()) return current.token
    // Another call replaced the session while this one waited: share its new one.
    if (session !== pending) return token()
    const opening = openSession()
    session = opening
    try {
      return (await opening).token
    } catch (error) {
      if (session === opening) session = undefined
      throw error
    }
  }

  const authorized = async (request: Request): Promise<Response> => {
    const write = request.method === "POST" || request.method === "PATCH"
    const headers = new Headers(request.headers)
    if (write && !headers.has("Idempotency-Key")) headers.set("Idempotency-Key", crypto.randomUUID())
    const stale = await token()
    headers.set("Authorization", `Bearer ${stale}`)
    // Only clones of it are sent, so its body is still there for the retry after a 401.
    const first = new Request(request, { headers })
    const response = await sendWithRetries(first)
    if (response.status !== 401) return response
    // Revoked or expired earlier than we thought: one new session, one more try.
    await response.body?.cancel()
    if (session !== undefined && (await session.catch(() => undefined))?.token === stale) session = undefined
    headers.set("Authorization", `Bearer ${await token()}`)
    return sendWithRetries(new Request(first, { headers }))
  }

  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: authorized })
  client.use({
    async onResponse({ response }) {
      if (!response.ok) throw await PaymentsApiError.of(response)
      return undefined
    },
  })
  return client
}

/**
 * The `data` of an answer of the client: with errors thrown, the body of a success.
 *
 * @example
 * declare const client: PaymentsClient, id: string
 * const { data: company } = await dataOf(client.GET("/api/v1/companies/{id}", { params: { path: { id } } }))
 */
export const dataOf = async <Data>(answer: Promise<{ data?: Data; response: Response }>): Promise<Data> => {
  const { data } = await answer
  return data as Data
}
