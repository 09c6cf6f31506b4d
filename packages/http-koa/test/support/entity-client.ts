import { expect } from "vitest"
import type { TestService } from "./test-service.ts"

/**
 * A workspace signed in with one company and its US entity, both named after the workspace:
 * where the onboarding tests start.
 *
 * @example
 * const { token, cid, eid } = await signedInEntity(service, "onboarding-persons")
 */
export const signedInEntity = async (service: TestService, workspace: string) => {
  const token = await service.signIn(workspace)
  const company = await service.request("POST", "/api/v1/companies", {
    token,
    body: { name: `Acme ${workspace}`, country: "US", default_currency: "USD" },
  })
  expect(company.status, company.text).toBe(201)
  const cid = company.body.data.id as string
  const entity = await service.request("POST", `/api/v1/companies/${cid}/entities`, {
    token,
    body: { name: `Acme ${workspace}`, country_alpha2: "US" },
  })
  expect(entity.status, entity.text).toBe(201)
  return { token, cid, eid: entity.body.data.id as string }
}

/**
 * Makes `domains` the workspace's trusted return domains through `POST /graphql`, as an embedder does.
 *
 * @example
 * await trustDomains(service, token, ["localhost"])
 */
export const trustDomains = async (service: TestService, token: string, domains: ReadonlyArray<string>) => {
  const configured = await service.request("POST", "/graphql", {
    token,
    body: {
      query:
        "mutation ($domains: [String!]!) { upsertTrustedDomainConfig(input: { domains: $domains }) { errors { field messages } } }",
      variables: { domains },
    },
  })
  expect(configured.status, configured.text).toBe(200)
  expect(configured.body.data.upsertTrustedDomainConfig.errors).toEqual([])
}
