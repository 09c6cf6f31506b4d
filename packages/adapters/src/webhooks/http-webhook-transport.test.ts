import { once } from "node:events"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createHttpWebhookTransport } from "./http-webhook-transport.ts"

/** What the receiver got: method, headers and the raw body bytes. */
interface Received {
  readonly method: string | undefined
  readonly headers: IncomingMessage["headers"]
  readonly body: Buffer
}

const received: Received[] = []
let answer: (res: ServerResponse) => void = (res) => res.writeHead(200).end("ok")
const server = createServer(async (req, res) => {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  received.push({ method: req.method, headers: req.headers, body: Buffer.concat(chunks) })
  answer(res)
})
let base = ""
beforeAll(async () => {
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const sandbox = createHttpWebhookTransport({ allowLoopback: true, responseBodyLimit: 16 })
const production = createHttpWebhookTransport()
const request = (url: string, timeoutMs = 2000) => ({
  url,
  body: '{"event":"x","amount":"1.00","é":1}',
  headers: { "Service-Signature": "sha256=00", "Service-Event-Id": "evt_1" },
  timeoutMs,
})

describe("the HTTP webhook transport", () => {
  it("POSTs the exact body bytes with the signature headers and JSON content type, and reads the status", async () => {
    answer = (res) => res.writeHead(200).end("thanks")
    const attempt = await sandbox.send(request(`${base}/hooks`))
    expect(attempt).toMatchObject({ kind: "answered", status: 200, body: "thanks", abort: false })
    const got = received.at(-1)!
    expect(got.method).toBe("POST")
    expect(got.body.equals(Buffer.from(request("").body, "utf8"))).toBe(true)
    expect(got.headers).toMatchObject({
      "content-type": "application/json",
      "service-signature": "sha256=00",
      "service-event-id": "evt_1",
    })
  })

  it("follows no redirect, keeps at most the body limit, and reads abort-message", async () => {
    answer = (res) => res.writeHead(302, { Location: `${base}/elsewhere` }).end()
    const before = received.length
    expect(await sandbox.send(request(`${base}/moved`))).toMatchObject({ kind: "answered", status: 302 })
    expect(received.length).toBe(before + 1)
    answer = (res) => res.writeHead(201).end("x".repeat(100_000))
    expect(await sandbox.send(request(`${base}/big`))).toMatchObject({ status: 201, body: "x".repeat(16) })
    answer = (res) => res.writeHead(410, { "webhook-delivery": "abort-message" }).end()
    expect(await sandbox.send(request(`${base}/gone`))).toMatchObject({ status: 410, abort: true })
  })

  it("gives up on a receiver that does not answer within the timeout", async () => {
    answer = () => {}
    const attempt = await sandbox.send(request(`${base}/slow`, 200))
    expect(attempt).toMatchObject({ kind: "failed", failure: "timeout" })
    expect(attempt.durationMs).toBeGreaterThanOrEqual(150)
  })

  it("outside sandbox mode refuses plain HTTP, and loopback, private, link-local and metadata addresses, by name or number", async () => {
    expect(await production.send(request(`${base}/hooks`))).toMatchObject({ kind: "failed", failure: "invalid_url" })
    const port = (server.address() as AddressInfo).port
    for (const host of [
      "127.0.0.1",
      "localhost",
      "10.0.0.1",
      "192.168.1.1",
      "172.16.0.1",
      "169.254.169.254",
      "[::1]",
      "[fd00:ec2::254]",
      "[::ffff:127.0.0.1]",
      "0.0.0.0",
    ]) {
      expect(await production.send(request(`https://${host}:${port}/hooks`, 1000)), host).toMatchObject({
        kind: "failed",
        failure: "address_not_allowed",
      })
    }
  })

  it("in sandbox mode still refuses private addresses other than loopback", async () => {
    for (const host of ["10.0.0.1", "169.254.169.254", "192.168.0.10"]) {
      expect(await sandbox.send(request(`https://${host}/hooks`, 1000)), host).toMatchObject({
        kind: "failed",
        failure: "address_not_allowed",
      })
    }
    expect(await sandbox.send(request("http://example.com/hooks"))).toMatchObject({ failure: "invalid_url" })
  })

  it("answers a connection refused and a bad URL as failures, never a throw", async () => {
    const closed = createServer()
    closed.listen(0, "127.0.0.1")
    await once(closed, "listening")
    const port = (closed.address() as AddressInfo).port
    closed.close()
    expect(await sandbox.send(request(`http://127.0.0.1:${port}/`))).toMatchObject({ failure: "connection_refused" })
    expect(await sandbox.send(request("not a url"))).toMatchObject({ failure: "invalid_url" })
  })

  it("checks a URL's host as it would connect: non-public addresses refused, by name or number; a name with no address is unresolvable", async () => {
    for (const url of [
      "https://127.0.0.1/",
      "https://localhost/",
      "https://10.0.0.1/",
      "https://169.254.169.254/",
      "https://[fd00:ec2::254]/",
      "https://[::ffff:10.0.0.1]/",
    ]) {
      expect(await production.checkUrl(url), url).toBe("address_not_allowed")
    }
    expect(await production.checkUrl("https://93.184.216.34/")).toBeUndefined()
    // RFC 6761: no name under .invalid ever resolves, so this needs no network.
    expect(await production.checkUrl("https://hooks.example.invalid/")).toBe("unresolvable")
    expect(await sandbox.checkUrl("https://hooks.example.invalid/")).toBe("unresolvable")
    expect(await sandbox.checkUrl(`${base}/hooks`)).toBeUndefined()
    expect(await sandbox.checkUrl("https://[::1]/")).toBeUndefined()
    expect(await sandbox.checkUrl("https://192.168.1.1/")).toBe("address_not_allowed")
  })

  it("looks names up with the resolver it is given: public addresses pass, an inside one is refused, none or a failed lookup is unresolvable", async () => {
    const answering = (addresses: ReadonlyArray<string> | Error) =>
      createHttpWebhookTransport({
        lookup: async () => {
          if (addresses instanceof Error) throw addresses
          return addresses
        },
      })
    const url = "https://hooks.example.com/in"
    expect(await answering(["93.184.216.34", "2606:2800:220:1::1"]).checkUrl(url)).toBeUndefined()
    expect(await answering(["93.184.216.34", "10.0.0.7"]).checkUrl(url)).toBe("address_not_allowed")
    expect(await answering([]).checkUrl(url)).toBe("unresolvable")
    expect(
      await answering(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" })).checkUrl(url),
    ).toBe("unresolvable")
    // An address needs no lookup.
    expect(await answering(new Error("not asked")).checkUrl("https://93.184.216.34/")).toBeUndefined()
  })
})
