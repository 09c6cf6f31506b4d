import { sandboxExamples } from "@payments-engine/adapters"
import { EntityId } from "@payments-engine/core"
import { pino } from "pino"
import { afterEach, expect, it } from "vitest"
import { type RunningServer, startServer } from "./server.ts"

let server: RunningServer | undefined
afterEach(() => server?.close())

const logLines: Array<Record<string, unknown>> = []
const hostLogger = pino({ level: "debug" }, { write: (line: string) => logLines.push(JSON.parse(line)) })

const post = async (url: string, body: unknown, token?: string) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  return {
    status: response.status,
    body: (await response.json()) as { data: { id: string } } & Record<string, unknown>,
  }
}

/** A session of the server's API key, through the mounted API. */
const sessionToken = async (running: RunningServer) => {
  const session = await post(`${running.url}/payments/api/v1/sessions`, running.apiKey)
  expect(session.status).toBe(201)
  return (session.body.data as unknown as { access_token: string }).access_token
}

it("serves the payments API under /payments beside its own route that calls the engine, in one workspace", async () => {
  server = await startServer({ port: 0, logger: hostLogger })
  const api = `${server.url}/payments/api/v1`
  const token = await sessionToken(server)

  const company = await post(`${api}/companies`, { name: "Acme Inc", country: "US", default_currency: "USD" }, token)
  expect(company.status).toBe(201)
  const throughApi = await post(`${api}/companies/${company.body.data.id}/recipients`, { name: "Api Supplier" }, token)
  expect(throughApi.status).toBe(201)
  const throughHost = await post(`${server.url}/my/companies/${company.body.data.id}/recipients`, {
    name: "Jane Supplier",
    email: "jane@example.com",
  })
  expect(throughHost).toMatchObject({ status: 201, body: { data: { name: "Jane Supplier" } } })

  const listed = await fetch(`${api}/companies/${company.body.data.id}/recipients`, {
    headers: { authorization: `Bearer ${token}` },
  })
  const page = (await listed.json()) as { data: Array<{ name: string }>; links: { first: string } }
  expect(page.data.map((recipient) => recipient.name).sort()).toEqual(["Api Supplier", "Jane Supplier"])
  // The API's links name the mount, so a client can follow them.
  expect(page.links.first).toMatch(/^\/payments\/api\/v1\/companies\/[^/]+\/recipients\?/)
  const first = await fetch(`${server.url}${page.links.first}`, { headers: { authorization: `Bearer ${token}` } })
  expect(first.status).toBe(200)
  // The Koa app logs to the host's logger, with the path it saw under the mount.
  expect(logLines).toContainEqual(
    expect.objectContaining({ msg: "request", method: "POST", path: "/api/v1/companies", status: 201 }),
  )
})

it("answers the host route's bad input with the API's field and message", async () => {
  server = await startServer({ port: 0, logger: hostLogger })
  const company = await server.engine.companies.create(
    { workspaceId: (await server.engine.access.ensureWorkspace("acme")).id, scope: "write" },
    { name: "Acme Inc", country: "US", default_currency: "USD" },
  )
  const refused = await post(`${server.url}/my/companies/${company.id}/recipients`, { email: "jane@example.com" })
  expect(refused).toEqual({ status: 400, body: { errors: [{ field: "name", message: expect.any(String) }] } })
  const unknown = await post(`${server.url}/my/companies/cmp_unknown/recipients`, { name: "Jane" })
  expect(unknown.status).toBe(404)
})

it("pays through the mounted API: the job runner started with the server completes the payment", async () => {
  server = await startServer({ port: 0, logger: hostLogger })
  const api = `${server.url}/payments/api/v1`
  const token = await sessionToken(server)
  const company = await post(`${api}/companies`, { name: "Acme Inc", country: "US", default_currency: "USD" }, token)
  const companyPath = `${api}/companies/${company.body.data.id}`
  const entity = await post(`${companyPath}/entities`, { name: "Acme Inc", country_alpha2: "US" }, token)
  const recipient = await post(`${companyPath}/recipients`, { name: "Jane Supplier" }, token)
  const account = await post(
    `${companyPath}/recipients/${recipient.body.data.id}/bank_accounts`,
    { entity_id: entity.body.data.id, beneficiary_details: sandboxExamples.US_ACH },
    token,
  )
  expect(account.status).toBe(201)
  // The host links the funding account itself, through the engine (the API's is a sandbox helper).
  const workspace = await server.engine.access.ensureWorkspace("acme")
  const funding = await server.engine.fundingAccounts.link(
    { workspaceId: workspace.id, scope: "write" },
    EntityId.make(entity.body.data.id),
    {},
  )
  const profileOf = (answer: { data: unknown }) =>
    (answer.data as { payment_profiles: Array<{ id: string }> }).payment_profiles[0]?.id
  const quote = await post(
    `${companyPath}/quotes`,
    {
      quote: {
        from_profile_id: funding.payment_profiles[0]?.id,
        to_profile_id: profileOf(account.body),
        instructed_amount: { amount: 125.5, currency: "USD" },
      },
    },
    token,
  )
  const payment = await post(
    `${companyPath}/payments`,
    {
      payment_instruction: {
        payment_quote_id: quote.body.data.id,
        reason: "goods_purchased",
        idempotency_key: "inv-1",
      },
    },
    token,
  )
  expect(payment.status).toBe(201)

  const statusOfPayment = async () => {
    const answer = await fetch(`${companyPath}/payments/${payment.body.data.id}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    return ((await answer.json()) as { data: { status: string } }).data.status
  }
  await expect.poll(statusOfPayment, { timeout: 10_000 }).toBe("completed")
  expect(logLines).toContainEqual(expect.objectContaining({ msg: "job run", kind: "execute_payment", outcome: "done" }))
})

it("logs each request of the mounted API once, with one id: the Koa app's line, not Fastify's", async () => {
  const lines: Array<Record<string, unknown>> = []
  server = await startServer({
    port: 0,
    logger: pino({ level: "debug" }, { write: (line: string) => lines.push(JSON.parse(line)) }),
  })
  const health = await fetch(`${server.url}/payments/health`)
  expect(health.status).toBe(200)
  const koaLine = (line: Record<string, unknown>) => line.msg === "request" && line.path === "/health"
  await expect.poll(() => lines.filter(koaLine)).toHaveLength(1)
  const mentions = lines.filter((line) => JSON.stringify(line).includes("/health"))
  expect(mentions).toEqual([
    expect.objectContaining({
      msg: "request",
      path: "/health",
      status: 200,
      request_id: health.headers.get("x-request-id"),
    }),
  ])
  // The host's own routes keep Fastify's request log.
  await fetch(`${server.url}/`)
  await expect.poll(() => lines.filter((line) => line.msg === "request completed")).toHaveLength(1)
})
