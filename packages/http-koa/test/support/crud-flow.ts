import { expect } from "vitest"
import { companyShape, entityShape, expectError, recipientShape } from "./expectations.ts"
import { acme, type TestService } from "./test-service.ts"

/**
 * The main flow of the API on one service: sign in, then create, read, list, update and delete a
 * company, its entity and a recipient, checking every success shape. Run on every storage.
 */
export const crudFlow = async (service: TestService): Promise<void> => {
  const token = await service.signIn("flow")
  const { request } = service

  const created = await request("POST", "/api/v1/companies", { token, body: acme })
  expect(created.status).toBe(201)
  expect(created.body).toEqual({ data: companyShape(acme) })
  const cid = created.body.data.id as string

  expect((await request("GET", `/api/v1/companies/${cid}`, { token })).body).toEqual(created.body)
  const listed = await request("GET", "/api/v1/companies", { token })
  expect(listed.status).toBe(200)
  expect(listed.body).toEqual({
    data: [created.body.data],
    meta: { total_records: 1, total_pages: 1, current_page: 1, per_page: 20 },
    links: {
      first: "/api/v1/companies?page=1&per_page=20",
      prev: null,
      next: null,
      last: "/api/v1/companies?page=1&per_page=20",
    },
  })
  const renamed = await request("PATCH", `/api/v1/companies/${cid}`, { token, body: { name: "Acme Holdings" } })
  expect(renamed.status).toBe(200)
  expect(renamed.body).toEqual({ data: companyShape({ ...acme, id: cid, name: "Acme Holdings" }) })

  const entity = await request("POST", `/api/v1/companies/${cid}/entities`, {
    token,
    body: { name: "Acme US", country_alpha2: "US" },
  })
  expect(entity.status).toBe(201)
  expect(entity.body).toEqual({ data: entityShape({ name: "Acme US", country_alpha2: "US", company_id: cid }) })
  const eid = entity.body.data.id as string
  expect((await request("GET", `/api/v1/companies/${cid}/entities/${eid}`, { token })).body).toEqual(entity.body)
  const entities = await request("GET", `/api/v1/companies/${cid}/entities`, { token })
  expect(entities.body.data).toEqual([entity.body.data])
  expect(entities.body.meta).toEqual({ total_records: 1, total_pages: 1, current_page: 1, per_page: 20 })
  const movedEntity = await request("PATCH", `/api/v1/companies/${cid}/entities/${eid}`, {
    token,
    body: { country_alpha2: "GB" },
  })
  expect(movedEntity.status).toBe(200)
  expect(movedEntity.body).toEqual({
    data: entityShape({ id: eid, name: "Acme US", country_alpha2: "GB", company_id: cid }),
  })
  const entityDeleted = await request("DELETE", `/api/v1/companies/${cid}/entities/${eid}`, { token })
  expect(entityDeleted.status).toBe(200)
  expect(entityDeleted.body).toEqual({
    data: { id: eid, message: "Entity deleted successfully" },
    message: "Entity deleted successfully",
  })
  expectError(
    await request("GET", `/api/v1/companies/${cid}/entities/${eid}`, { token }),
    404,
    "id",
    "Entity not found or not accessible in this company",
  )

  const recipient = await request("POST", `/api/v1/companies/${cid}/recipients`, {
    token,
    body: { name: "Jane Supplier", email: "jane@example.com" },
  })
  expect(recipient.status).toBe(201)
  expect(recipient.body).toEqual({ data: recipientShape({ name: "Jane Supplier", email: "jane@example.com" }) })
  const rid = recipient.body.data.id as string
  expect((await request("GET", `/api/v1/companies/${cid}/recipients/${rid}`, { token })).body).toEqual(recipient.body)
  const recipients = await request("GET", `/api/v1/companies/${cid}/recipients`, { token })
  expect(recipients.body).toEqual({
    data: [recipient.body.data],
    meta: { total_records: 1, total_pages: 1, current_page: 1, per_page: 100 },
    links: {
      first: `/api/v1/companies/${cid}/recipients?page=1&per_page=100`,
      prev: null,
      next: null,
      last: `/api/v1/companies/${cid}/recipients?page=1&per_page=100`,
    },
  })
  const recipientDeleted = await request("DELETE", `/api/v1/companies/${cid}/recipients/${rid}`, { token })
  expect(recipientDeleted.status).toBe(204)
  expect(recipientDeleted.text).toBe("")
  expectError(
    await request("GET", `/api/v1/companies/${cid}/recipients/${rid}`, { token }),
    404,
    "id",
    "Recipient not found or not accessible in this workspace",
  )
  expect((await request("GET", `/api/v1/companies/${cid}/recipients`, { token })).body.data).toEqual([])

  const companyDeleted = await request("DELETE", `/api/v1/companies/${cid}`, { token })
  expect(companyDeleted.status).toBe(200)
  expect(companyDeleted.body).toEqual({ data: companyShape({ ...acme, id: cid, name: "Acme Holdings" }) })
  expect((await request("GET", `/api/v1/companies/${cid}`, { token })).status).toBe(200)
  expect((await request("GET", "/api/v1/companies", { token })).body.data).toEqual([])
}
