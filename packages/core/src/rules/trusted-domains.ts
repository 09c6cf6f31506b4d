import type { FieldError } from "../domain-error.ts"

/**
 * Trusted return domains (spec "Authentication" 5, DECISIONS "Trusted domains"): which hosts a
 * hosted page may send a person back to. Pure functions over the WHATWG `URL` parser, so a host
 * is read exactly as a browser reads it: userinfo, ports and paths are not the host
 * (`https://example.com@evil.test` is evil.test), IDN hosts are compared in punycode, case and
 * one trailing dot do not matter.
 */

/** Bounds of a configuration: how many domains, how long each one, how long a return URL. */
export const trustedDomainLimits = {
  /** Domains in one workspace's list. */
  maxDomains: 50,
  /** Characters of one domain as sent, and of its punycode form (a DNS name is at most 253). */
  maxDomainLength: 253,
  /** Characters of a return URL (as browsers and Stripe bound URLs). */
  maxReturnUrlLength: 2048,
} as const

/** The messages of configuration and return URL problems. */
export const trustedDomainMessages = {
  notList: "Domains must be a list of strings",
  tooMany: `Domains must hold at most ${trustedDomainLimits.maxDomains} entries`,
  notText: "Domain must be a string",
  empty: "Domain must not be blank",
  tooLong: `Domain must be at most ${trustedDomainLimits.maxDomainLength} characters`,
  bareWildcard: "A wildcard must be followed by a domain, as in *.example.com",
  misplacedWildcard: "A wildcard is allowed only as the first label, as in *.example.com",
  wildcardTooBroad: "A wildcard must cover a domain of at least two labels, as in *.example.com",
  notHostname: "Domain must be a host name only, without scheme, user, port or path (example.com or *.example.com)",
  /** The spec's message for every refused return URL (`invalid` on `return_url`). */
  untrusted: "URL domain is not in the trusted domains list",
} as const

/**
 * One configured domain, normalised: `host` is lowercase punycode without a trailing dot;
 * `subdomains` is a `*.host` pattern (any depth below `host`, never `host` itself).
 */
export interface TrustedDomainPattern {
  readonly host: string
  readonly subdomains: boolean
}

/** What {@link checkReturnUrl} allows besides `https:`. */
export interface ReturnUrlPolicy {
  /** Sandbox mode: `http:` to localhost or 127.0.0.1 (still checked against the list). */
  readonly allowLocalHttp: boolean
}

const localHosts = new Set(["localhost", "127.0.0.1"])
// Characters that make a pattern more than a host name once the URL parser reads it.
const notInHostname = /[\s/\\:@?#%[\]]/
const label = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/
const ipv4 = /^\d{1,3}(\.\d{1,3}){3}$/

/** The host of a parsed URL as compared: lowercase (the parser does it), one trailing dot dropped. */
const comparableHost = (hostname: string): string => (hostname.endsWith(".") ? hostname.slice(0, -1) : hostname)

/**
 * The pattern of one configured domain, normalised as the URL parser normalises hosts, or the
 * message saying what is wrong with it.
 *
 * @example
 * parseDomainPattern("*.Bücher.example.") // { pattern: { host: "xn--bcher-kva.example", subdomains: true } }
 * parseDomainPattern("https://example.com") // { problem: "Domain must be a host name only, ..." }
 */
export const parseDomainPattern = (
  text: string,
): { readonly pattern: TrustedDomainPattern } | { readonly problem: string } => {
  const m = trustedDomainMessages
  const trimmed = text.trim()
  if (trimmed === "") return { problem: m.empty }
  if (trimmed.length > trustedDomainLimits.maxDomainLength) return { problem: m.tooLong }
  if (trimmed === "*" || trimmed === "*.") return { problem: m.bareWildcard }
  const subdomains = trimmed.startsWith("*.")
  const rest = subdomains ? trimmed.slice(2) : trimmed
  if (rest.includes("*")) return { problem: m.misplacedWildcard }
  if (notInHostname.test(rest) || [...rest].some((c) => c < " " || c === "\u007f")) return { problem: m.notHostname }
  let url: URL
  try {
    url = new URL(`https://${rest}/`)
  } catch {
    return { problem: m.notHostname }
  }
  if (url.username !== "" || url.password !== "" || url.port !== "" || url.pathname !== "/") {
    return { problem: m.notHostname }
  }
  const host = comparableHost(url.hostname)
  if (host.length > trustedDomainLimits.maxDomainLength) return { problem: m.tooLong }
  const labels = host.split(".")
  if (!labels.every((part) => label.test(part))) return { problem: m.notHostname }
  const isIp = ipv4.test(host)
  if (!isIp && /^\d+$/.test(labels[labels.length - 1] ?? "")) return { problem: m.notHostname }
  if (subdomains && (isIp || labels.length < 2)) return { problem: m.wildcardTooBroad }
  return { pattern: { host, subdomains } }
}

/** A pattern as stored and shown: `host` or `*.host`. */
export const formatDomainPattern = (pattern: TrustedDomainPattern): string =>
  pattern.subdomains ? `*.${pattern.host}` : pattern.host

/**
 * The configured list checked whole: the normalised domains (duplicates dropped, first order
 * kept), or every problem, by field (`domains` for the list, `domains.<index>` for one entry).
 *
 * @example
 * checkTrustedDomains(["Example.com", "*.example.com"]) // { domains: ["example.com", "*.example.com"] }
 * checkTrustedDomains(["*"]) // { errors: [{ field: "domains.0", message: "A wildcard must be followed ..." }] }
 */
export const checkTrustedDomains = (
  input: unknown,
): { readonly domains: ReadonlyArray<string> } | { readonly errors: ReadonlyArray<FieldError> } => {
  const m = trustedDomainMessages
  if (!Array.isArray(input)) return { errors: [{ field: "domains", message: m.notList }] }
  if (input.length > trustedDomainLimits.maxDomains) return { errors: [{ field: "domains", message: m.tooMany }] }
  const errors: Array<FieldError> = []
  const domains: Array<string> = []
  input.forEach((entry: unknown, index) => {
    const field = `domains.${index}`
    if (typeof entry !== "string") {
      errors.push({ field, message: m.notText })
      return
    }
    const parsed = parseDomainPattern(entry)
    if ("problem" in parsed) {
      errors.push({ field, message: parsed.problem })
      return
    }
    const formatted = formatDomainPattern(parsed.pattern)
    if (!domains.includes(formatted)) domains.push(formatted)
  })
  return errors.length > 0 ? { errors } : { domains }
}

/**
 * True when `host` (lowercase punycode without trailing dot, as {@link comparableHost} gives)
 * is `pattern`'s host, or, for a `*.` pattern, any name below it: a whole label boundary, so
 * `evilexample.com` is not below `example.com` and `example.com.evil.test` is below evil.test.
 */
export const hostMatches = (host: string, pattern: TrustedDomainPattern): boolean =>
  pattern.subdomains ? host.endsWith(`.${pattern.host}`) : host === pattern.host

/**
 * The return URL normalised (as the URL parser prints it) when it is `https:` (or, with
 * `allowLocalHttp`, `http:` to localhost or 127.0.0.1) and its host matches one of `domains`
 * (stored patterns, as {@link checkTrustedDomains} returns them); undefined when it is refused.
 *
 * @example
 * trustedReturnUrl("https://Pay.Example.com:8443/done?x=1", ["*.example.com"], { allowLocalHttp: false })
 * // "https://pay.example.com:8443/done?x=1"
 * trustedReturnUrl("https://example.com@evil.test/", ["example.com"], { allowLocalHttp: false }) // undefined
 */
export const trustedReturnUrl = (
  text: string,
  domains: ReadonlyArray<string>,
  policy: ReturnUrlPolicy,
): string | undefined => {
  if (text.length > trustedDomainLimits.maxReturnUrlLength) return undefined
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return undefined
  }
  const host = comparableHost(url.hostname)
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowLocalHttp && localHosts.has(host))) {
    return undefined
  }
  if (host === "") return undefined
  const trusted = domains.some((domain) => {
    const parsed = parseDomainPattern(domain)
    return "pattern" in parsed && hostMatches(host, parsed.pattern)
  })
  return trusted ? url.href : undefined
}
