import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  checkTrustedDomains,
  trustedDomainMessages as m,
  parseDomainPattern,
  trustedDomainLimits,
  trustedReturnUrl,
} from "./trusted-domains.ts"

const production = { allowLocalHttp: false }
const sandbox = { allowLocalHttp: true }

/** A configured list of one domain, normalised as the service stores it. */
const stored = (domain: string): ReadonlyArray<string> => {
  const checked = checkTrustedDomains([domain])
  if (!("domains" in checked)) throw new Error(`not a domain: ${domain}`)
  return checked.domains
}
const trusts = (url: string, domain: string, policy = production) =>
  trustedReturnUrl(url, stored(domain), policy) !== undefined

// ASCII labels that never start with `xn--` (which the URL parser would decode as punycode).
const asciiLabel = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/)
const unicodeLabel = fc
  .array(fc.constantFrom("ä", "ö", "ü", "é", "ñ", "ж", "д", "я", "中", "文", "a", "b", "z"), {
    minLength: 1,
    maxLength: 6,
  })
  .map((chars) => chars.join(""))
const labelOf = fc.oneof(asciiLabel, unicodeLabel)
/** A registrable-looking domain of 2 to 4 labels, the last an ASCII TLD. */
const domain = fc
  .tuple(fc.array(labelOf, { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[a-z]{2,6}$/))
  .map(([labels, tld]) => [...labels, tld].join("."))
const subdomainLabels = fc.array(labelOf, { minLength: 1, maxLength: 4 })
const randomCase = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((flips) => [...text].map((c, i) => (flips[i] ? c.toUpperCase() : c.toLowerCase())).join(""))
const port = fc.integer({ min: 1, max: 65535 })
const path = fc
  .array(fc.stringMatching(/^[A-Za-z0-9._~-]{0,8}$/), { maxLength: 3 })
  .map((parts) => `/${parts.join("/")}`)
const userinfo = fc.stringMatching(/^[A-Za-z0-9]{1,8}(:[A-Za-z0-9]{0,8})?$/)
/** Two different domains, neither below the other. */
const twoDomains = fc.tuple(domain, domain).filter(([a, b]) => {
  const [ha, hb] = [new URL(`https://${a}/`).hostname, new URL(`https://${b}/`).hostname]
  return ha !== hb && !ha.endsWith(`.${hb}`) && !hb.endsWith(`.${ha}`)
})

describe("trusted-domain matching", () => {
  it("a *. pattern matches subdomains at any depth, never the bare domain; an exact one only itself", () => {
    fc.assert(
      fc.property(domain, subdomainLabels, (d, labels) => {
        const sub = `${labels.join(".")}.${d}`
        expect(trusts(`https://${sub}/`, `*.${d}`)).toBe(true)
        expect(trusts(`https://${d}/`, `*.${d}`)).toBe(false)
        expect(trusts(`https://${d}/`, d)).toBe(true)
        expect(trusts(`https://${sub}/`, d)).toBe(false)
      }),
    )
  })

  it("ignores case, in the URL and in the pattern", () => {
    fc.assert(
      fc.property(
        domain.chain((d) => fc.tuple(fc.constant(d), randomCase(d), randomCase(d))),
        subdomainLabels,
        ([_, urlHost, patternHost], labels) => {
          expect(trusts(`https://${urlHost}/`, patternHost)).toBe(true)
          expect(trusts(`https://${labels.join(".").toUpperCase()}.${urlHost}/`, `*.${patternHost}`)).toBe(true)
        },
      ),
    )
  })

  it("compares IDN hosts in punycode: Unicode and punycode forms of one host match each other", () => {
    fc.assert(
      fc.property(domain, fc.boolean(), fc.boolean(), (d, urlInPunycode, patternInPunycode) => {
        const puny = new URL(`https://${d}/`).hostname
        const urlHost = urlInPunycode ? puny : d
        const patternHost = patternInPunycode ? puny : d
        expect(trusts(`https://${urlHost}/`, patternHost)).toBe(true)
        expect(trusts(`https://a.${urlHost}/`, `*.${patternHost}`)).toBe(true)
      }),
    )
  })

  it("reads the host, not the userinfo: a trusted name as user or password is no trusted host", () => {
    fc.assert(
      fc.property(twoDomains, userinfo, ([trusted, other], info) => {
        expect(trusts(`https://${trusted}@${other}/`, trusted)).toBe(false)
        expect(trusts(`https://${trusted}:${trusted}@${other}/`, trusted)).toBe(false)
        expect(trusts(`https://a.${trusted}@${other}/`, `*.${trusted}`)).toBe(false)
        expect(trusts(`https://${info}@${trusted}/`, trusted)).toBe(true)
      }),
    )
  })

  it("ignores ports, paths and queries, and returns the URL as the parser prints it", () => {
    fc.assert(
      fc.property(twoDomains, port, path, ([trusted, other], p, rest) => {
        const url = `https://${trusted}:${p}${rest}?next=https://${other}/`
        expect(trustedReturnUrl(url, stored(trusted), production)).toBe(new URL(url).href)
        expect(trusts(`https://${other}:${p}/${trusted}${rest}`, trusted)).toBe(false)
        expect(trusts(`https://${other}/?return=https://${trusted}/`, trusted)).toBe(false)
        expect(trusts(`https://${other}#${trusted}`, trusted)).toBe(false)
      }),
    )
  })

  it("ignores one trailing dot, on the URL's host and on the pattern", () => {
    fc.assert(
      fc.property(domain, fc.boolean(), fc.boolean(), (d, urlDot, patternDot) => {
        const urlHost = urlDot ? `${d}.` : d
        const patternHost = patternDot ? `${d}.` : d
        expect(trusts(`https://${urlHost}/x`, patternHost)).toBe(true)
        expect(trusts(`https://sub.${urlHost}/x`, `*.${patternHost}`)).toBe(true)
        expect(trusts(`https://${urlHost}/x`, `*.${patternHost}`)).toBe(false)
      }),
    )
  })

  it("never matches look-alike suffixes or prefixes", () => {
    fc.assert(
      fc.property(twoDomains, asciiLabel, ([trusted, evil], glue) => {
        for (const pattern of [trusted, `*.${trusted}`]) {
          expect(trusts(`https://${trusted}.${evil}/`, pattern)).toBe(false)
          expect(trusts(`https://sub.${trusted}.${evil}/`, pattern)).toBe(false)
          expect(trusts(`https://${glue}${trusted}/`, pattern)).toBe(false)
          expect(trusts(`https://${glue}-${trusted}/`, pattern)).toBe(false)
          expect(trusts(`https://${evil}/`, pattern)).toBe(false)
        }
      }),
    )
  })

  it("refuses http, except to localhost and 127.0.0.1 in sandbox mode, and other schemes", () => {
    fc.assert(
      fc.property(domain, port, (d, p) => {
        expect(trusts(`http://${d}/`, d, sandbox)).toBe(false)
        expect(trusts(`http://${d}/`, d, production)).toBe(false)
        expect(trusts(`ftp://${d}/`, d, sandbox)).toBe(false)
        expect(trusts(`http://localhost:${p}/done`, "localhost", sandbox)).toBe(true)
        expect(trusts(`http://127.0.0.1:${p}/done`, "127.0.0.1", sandbox)).toBe(true)
        expect(trusts(`http://localhost:${p}/done`, "localhost", production)).toBe(false)
        expect(trusts(`https://localhost:${p}/done`, "localhost", production)).toBe(true)
      }),
    )
    expect(trusts("javascript:alert(1)//example.com", "example.com", sandbox)).toBe(false)
    expect(trusts("//example.com/", "example.com")).toBe(false)
    expect(trusts("not a url", "example.com")).toBe(false)
    expect(trusts(`https://example.com/${"a".repeat(trustedDomainLimits.maxReturnUrlLength)}`, "example.com")).toBe(
      false,
    )
  })

  it("agrees with hand-picked cases", () => {
    expect(trusts("https://example.com@evil.test", "example.com")).toBe(false)
    expect(trusts("https://evil.test\\@example.com/", "example.com")).toBe(false)
    expect(trusts("https://example.com.evil.test/", "*.example.com")).toBe(false)
    expect(trusts("https://evilexample.com/", "*.example.com")).toBe(false)
    expect(trusts("https://a.b.c.example.com/", "*.example.com")).toBe(true)
    expect(trusts("https://EXAMPLE.com./", "Example.COM")).toBe(true)
    expect(trusts("https://xn--bcher-kva.example/", "bücher.example")).toBe(true)
    expect(trusts("https://BÜCHER.example/", "xn--bcher-kva.example")).toBe(true)
    expect(trusts("https://0x7f.0.0.1/", "127.0.0.1")).toBe(true)
  })
})

describe("checkTrustedDomains", () => {
  it("normalises hosts and wildcards, and drops duplicates", () => {
    expect(checkTrustedDomains([" Example.COM ", "*.Bücher.example.", "example.com", "localhost"])).toEqual({
      domains: ["example.com", "*.xn--bcher-kva.example", "localhost"],
    })
    expect(checkTrustedDomains([])).toEqual({ domains: [] })
  })

  it("refuses what is not a host name or *. + host name, by index", () => {
    const refused: ReadonlyArray<readonly [string, string]> = [
      ["", m.empty],
      ["*", m.bareWildcard],
      ["*.", m.bareWildcard],
      ["*.com", m.wildcardTooBroad],
      ["*.127.0.0.1", m.wildcardTooBroad],
      ["a.*.example.com", m.misplacedWildcard],
      ["*example.com", m.misplacedWildcard],
      ["**.example.com", m.misplacedWildcard],
      ["https://example.com", m.notHostname],
      ["example.com/path", m.notHostname],
      ["example.com:443", m.notHostname],
      ["user@example.com", m.notHostname],
      ["exa mple.com", m.notHostname],
      ["example.com?x", m.notHostname],
      ["[::1]", m.notHostname],
      ["ex!ample.com", m.notHostname],
      ["-example.com", m.notHostname],
      ["example..com", m.notHostname],
      ["example.123", m.notHostname],
      ["a\u0000b.com", m.notHostname],
      [`${"a".repeat(250)}.com`, m.tooLong],
    ]
    for (const [text, message] of refused) {
      expect(parseDomainPattern(text), text).toEqual({ problem: message })
      expect(checkTrustedDomains(["ok.example", text]), text).toEqual({ errors: [{ field: "domains.1", message }] })
    }
  })

  it("bounds the list and its entries' types", () => {
    const many = Array.from({ length: trustedDomainLimits.maxDomains + 1 }, (_, i) => `d${i}.example`)
    expect(checkTrustedDomains(many)).toEqual({ errors: [{ field: "domains", message: m.tooMany }] })
    expect(checkTrustedDomains(many.slice(1))).toMatchObject({ domains: many.slice(1) })
    expect(checkTrustedDomains("example.com")).toEqual({ errors: [{ field: "domains", message: m.notList }] })
    expect(checkTrustedDomains([1, "ok.example", null])).toEqual({
      errors: [
        { field: "domains.0", message: m.notText },
        { field: "domains.2", message: m.notText },
      ],
    })
  })

  it("keeps every accepted pattern parseable, so a stored list always reads back", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            domain,
            domain.map((d) => `*.${d}`),
          ),
          { maxLength: 5 },
        ),
        (domains) => {
          const checked = checkTrustedDomains(domains)
          if (!("domains" in checked)) throw new Error("refused a generated domain")
          expect(checkTrustedDomains(checked.domains)).toEqual(checked)
        },
      ),
    )
  })
})
