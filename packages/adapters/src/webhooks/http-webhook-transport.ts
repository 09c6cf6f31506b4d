import { lookup } from "node:dns/promises"
import * as http from "node:http"
import * as https from "node:https"
import { isIP } from "node:net"
import { performance } from "node:perf_hooks"
import type { WebhookAttempt, WebhookFailure, WebhookTransport } from "@payments-engine/core"
import ipaddr from "ipaddr.js"
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent"

/** Options of {@link createHttpWebhookTransport}. */
export interface HttpWebhookTransportOptions {
  /**
   * Sandbox mode: also deliver to `http://localhost`, `http://127.0.0.1` and `http://[::1]`, and
   * to 127.0.0.1 and ::1 over HTTPS, for receivers on the developer's machine. Every other
   * private or special address stays refused.
   */
  readonly allowLoopback?: boolean
  /** Bytes of an answer's body kept for the delivery log; the rest is not read. 4 KiB by default. */
  readonly responseBodyLimit?: number
  /**
   * The addresses of a host name, as `checkUrl` looks them up: the system resolver
   * (`dns.lookup`, what connections use) by default. It may throw or answer none for a name
   * that does not resolve.
   */
  readonly lookup?: (host: string) => Promise<ReadonlyArray<string>>
}

/** The system resolver's addresses of `host`, as a connection would find them. */
const systemLookup = async (host: string) => (await lookup(host, { all: true })).map((entry) => entry.address)

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"])

/** The words of a Node network error, mapped to what the delivery log may say of it. */
const failureOf = (error: unknown): WebhookFailure => {
  const { code, message, name } = (error ?? {}) as { code?: string; message?: string; name?: string }
  if (name === "TimeoutError" || name === "AbortError" || code === "ABORT_ERR") return "timeout"
  // request-filtering-agent refuses with a plain Error naming the rule.
  if (typeof message === "string" && message.includes("is not allowed")) return "address_not_allowed"
  switch (code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "dns_failure"
    case "ECONNREFUSED":
      return "connection_refused"
    case "ECONNRESET":
    case "EPIPE":
      return "connection_reset"
    case "ERR_INVALID_URL":
      return "invalid_url"
  }
  if (typeof code === "string" && (code.startsWith("ERR_TLS") || code.includes("CERT") || code.startsWith("ERR_SSL"))) {
    return "tls_failure"
  }
  return "network_error"
}

/**
 * Webhook deliveries over Node's HTTP client: HTTPS only (plain HTTP to loopback in sandbox mode),
 * no redirect followed, the answer's body read up to a small limit, the whole attempt bounded by
 * its timeout, and every connection made through request-filtering-agent, which checks the
 * address actually connected to (after DNS, so a name that resolves to an inside address, now or
 * after a rebinding, is refused) against loopback, private, link-local, unique-local, carrier-grade
 * NAT, multicast, reserved and unspecified ranges, the cloud metadata address among them.
 *
 * @example
 * declare const url: string, body: string, headers: Record<string, string>
 * const transport = createHttpWebhookTransport({ allowLoopback: config.sandbox })
 * const attempt = await transport.send({ url, body, headers, timeoutMs: 30_000 })
 */
export const createHttpWebhookTransport = (options: HttpWebhookTransportOptions = {}): WebhookTransport => {
  const limit = options.responseBodyLimit ?? 4096
  const resolve = options.lookup ?? systemLookup
  // Exact addresses: the library warns when it matches an address against a CIDR of the other family.
  const filter: { allowIPAddressList?: string[] } = options.allowLoopback
    ? { allowIPAddressList: ["127.0.0.1", "::1"] }
    : {}
  const agents = {
    "https:": new RequestFilteringHttpsAgent({ ...filter, keepAlive: true }),
    "http:": new RequestFilteringHttpAgent({ ...filter, keepAlive: true }),
  }
  const allowed = new Set(filter.allowIPAddressList ?? [])
  /** As request-filtering-agent judges an address: only public unicast, or one of the allowed. */
  const acceptable = (address: string) => {
    if (allowed.has(address)) return true
    try {
      return ipaddr.process(address).range() === "unicast"
    } catch {
      return false
    }
  }
  return {
    checkUrl: async (raw) => {
      let url: URL
      try {
        url = new URL(raw)
      } catch {
        return undefined
      }
      const host = url.hostname.replace(/^\[|\]$/g, "")
      const addresses =
        isIP(host) !== 0
          ? [host]
          : await resolve(host).then(
              (found) => found,
              () => [],
            )
      if (addresses.length === 0) return "unresolvable"
      return addresses.every(acceptable) ? undefined : "address_not_allowed"
    },
    send: async (request) => {
      const started = performance.now()
      const elapsed = () => Math.round(performance.now() - started)
      const failed = (failure: WebhookFailure): WebhookAttempt => ({ kind: "failed", failure, durationMs: elapsed() })
      let url: URL
      try {
        url = new URL(request.url)
      } catch {
        return failed("invalid_url")
      }
      const plainAllowed = options.allowLoopback === true && loopbackHosts.has(url.hostname)
      if (url.protocol !== "https:" && !(url.protocol === "http:" && plainAllowed)) return failed("invalid_url")
      const client = url.protocol === "https:" ? https : http
      const body = Buffer.from(request.body, "utf8")
      return new Promise<WebhookAttempt>((resolve) => {
        const outgoing = client.request(
          url,
          {
            method: "POST",
            agent: agents[url.protocol as "https:" | "http:"],
            signal: AbortSignal.timeout(request.timeoutMs),
            headers: {
              ...request.headers,
              "Content-Type": "application/json",
              "Content-Length": String(body.length),
              "User-Agent": "payments-engine-webhooks",
            },
          },
          (incoming) => {
            const chunks: Buffer[] = []
            let kept = 0
            const answered = () => {
              incoming.destroy()
              resolve({
                kind: "answered",
                status: incoming.statusCode ?? 0,
                durationMs: elapsed(),
                body: Buffer.concat(chunks).toString("utf8"),
                abort: String(incoming.headers["webhook-delivery"] ?? "").toLowerCase() === "abort-message",
              })
            }
            incoming.on("data", (chunk: Buffer) => {
              if (kept >= limit) return
              chunks.push(chunk.subarray(0, limit - kept))
              kept += Math.min(chunk.length, limit - kept)
              // Enough for the log: the rest of the body is never read.
              if (kept >= limit) answered()
            })
            incoming.on("end", answered)
            incoming.on("error", () => answered())
          },
        )
        outgoing.on("error", (error) => resolve(failed(failureOf(error))))
        outgoing.end(body)
      })
    },
  }
}
