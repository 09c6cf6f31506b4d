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

it("serves the payments API under /payments beside its own route that calls the engine, in one workspace", async () => {
  server = await startServer({ port: 0, logger: hostLogger })
  const api = `${server.url}/payments/api/v1`
  const session = await post(`${api}/sessions`, server.apiKey)
  expect(session.status).toBe(201)
  const token = (session.body.data as unknown as { access_token: string }).access_token

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
  const names = ((await listed.json()) as { data: Array<{ name: string }> }).data.map((recipient) => recipient.name)
  expect(names.sort()).toEqual(["Api Supplier", "Jane Supplier"])
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
