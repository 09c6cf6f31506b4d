import { sandboxExamples } from "@payments-engine/adapters"
import { BankAccountId, CompanyId, PaymentProfileId, readPath, type Storage } from "@payments-engine/core"
import { Either, Schema } from "effect"
import { expect } from "vitest"
import { PageLinks, PageMeta } from "../../src/binding/openapi/openapi-schemas.ts"
import type { RouteSpec } from "../../src/binding/routes/route-table.ts"
import { WebhookPageMeta } from "../../src/binding/webhook-errors.ts"
import type { TestResponse, TestService } from "./test-service.ts"

/** A field of a bank-account requirements schema, as the API answers it. */
interface RequirementFieldJson {
  readonly enabled: boolean
  readonly path: string
  readonly required: boolean
  readonly field: { readonly default: string | null }
}

/** Writes `value` at a dot path of a plain object, creating the objects on the way. */
const writePath = (target: Record<string, unknown>, path: string, value: unknown): void => {
  const keys = path.split(".")
  let current = target
  for (const key of keys.slice(0, -1)) {
    current[key] ??= {}
    current = current[key] as Record<string, unknown>
  }
  current[keys.at(-1) as string] = value
}

/**
 * `beneficiary_details` filled the way a client fills the requirements form: for every enabled
 * field of the schema, the value at its `path` in `values` (a sandbox example), else the field's
 * default. Fails the test when a required field is left without a value.
 *
 * @example
 * const details = fillRequirements(requirements.body.data, sandboxExamples.US_ACH)
 */
export const fillRequirements = (
  schema: { readonly fields: ReadonlyArray<RequirementFieldJson> },
  values: unknown,
): Record<string, unknown> => {
  const details: Record<string, unknown> = {}
  for (const field of schema.fields.filter((f) => f.enabled)) {
    const value = readPath(values, field.path) ?? field.field.default ?? undefined
    if (value === undefined) {
      expect(field.required, `required field ${field.path} has no example value`).toBe(false)
      continue
    }
    writePath(details, field.path, field.path === "transfer_methods" && typeof value === "string" ? [value] : value)
  }
  return details
}

/** The success body shape of a route of the table, as a schema (what the OpenAPI document says). */
const successSchema = (route: RouteSpec): Schema.Schema.Any | undefined => {
  const response = route.response
  switch (response.kind) {
    case "data":
      return Schema.Struct({ data: response.schema, ...(response.echo ?? {}) })
    case "created-or-existing":
      return Schema.Struct({ data: response.schema })
    case "page":
      return Schema.Struct({
        data: Schema.Array(response.schema),
        meta: response.meta === "webhook" ? WebhookPageMeta : PageMeta,
        links: PageLinks,
      })
    case "raw":
      return response.schema
    case "empty":
    case "file":
      return undefined
  }
}

/**
 * Asserts that a success answer has exactly the shape its route documents (no missing, wrong
 * or extra property), so the OpenAPI document tells the truth about it.
 *
 * @example
 * expectDocumentedShape(service.routes, "createQuote", response)
 */
export const expectDocumentedShape = (
  routes: ReadonlyArray<RouteSpec>,
  operationId: string,
  response: TestResponse,
): void => {
  const route = routes.find((r) => r.operationId === operationId)
  if (route === undefined) throw new Error(`no route ${operationId}`)
  const statuses = route.response.kind === "created-or-existing" ? [route.status, 200] : [route.status]
  expect(statuses, `${operationId}: ${response.status} ${response.text}`).toContain(response.status)
  const schema = successSchema(route)
  if (schema === undefined) return
  const decoded = Schema.decodeUnknownEither(schema as Schema.Schema<unknown, unknown, never>, {
    errors: "all",
    onExcessProperty: "error",
  })(response.body)
  if (Either.isLeft(decoded)) {
    throw new Error(`${operationId} answered a shape its route does not document: ${decoded.left.message}`)
  }
}

/**
 * A client of a new workspace, as the black-box flows drive the API: `call` checks every answer
 * against the shape its route documents, and `companyWithEntity` makes the usual start.
 *
 * @example
 * const { call, companyWithEntity } = await documentedClient(service, "payer")
 * const { cid, eid } = await companyWithEntity()
 */
export const documentedClient = async (service: TestService, workspace: string) => {
  const token = await service.signIn(workspace)
  const call = async (operationId: string, method: string, path: string, body?: unknown) => {
    const response = await service.request(method, path, { token, ...(body === undefined ? {} : { body }) })
    expectDocumentedShape(service.routes, operationId, response)
    return response
  }
  const companyWithEntity = async () => {
    const company = { name: "Acme", country: "US", default_currency: "USD" }
    const cid: string = (await call("createCompany", "POST", "/api/v1/companies", company)).body.data.id
    const entity = { name: "Acme", country_alpha2: "US" }
    const eid: string = (await call("createEntity", "POST", `/api/v1/companies/${cid}/entities`, entity)).body.data.id
    return { cid, eid }
  }
  return { token, call, companyWithEntity }
}

/** The ids a payer needs: company, entity, a recipient with a US ACH account, a linked funding account. */
export interface Payer {
  readonly token: string
  readonly cid: string
  readonly eid: string
  readonly rid: string
  /** The recipient's credit profile (ACH, USD). */
  readonly toProfile: string
  /** The entity's debit profile (ACH, USD). */
  readonly fromProfile: string
}

/**
 * Signs in to `workspace` and sets up a payer through the API: a company, its entity, a recipient
 * with the US ACH example account, and a sandbox funding account.
 *
 * @example
 * const payer = await setUpPayer(service, "acme")
 */
export const setUpPayer = async (service: TestService, workspace: string): Promise<Payer> => {
  const token = await service.signIn(workspace)
  const ok = async (method: string, path: string, body: unknown, status = 201) => {
    const response = await service.request(method, path, { token, body })
    expect(response.status, `${method} ${path}: ${response.text}`).toBe(status)
    return response.body.data
  }
  const cid = (await ok("POST", "/api/v1/companies", { name: "Payer Inc", country: "US", default_currency: "USD" })).id
  const eid = (await ok("POST", `/api/v1/companies/${cid}/entities`, { name: "Payer Inc", country_alpha2: "US" })).id
  const rid = (await ok("POST", `/api/v1/companies/${cid}/recipients`, { name: "Jane Supplier" })).id
  const account = await ok("POST", `/api/v1/companies/${cid}/recipients/${rid}/bank_accounts`, {
    entity_id: eid,
    beneficiary_details: sandboxExamples.US_ACH,
  })
  const funding = await ok("POST", `/api/v1/sandbox/entities/${eid}/funding_accounts`, {})
  return {
    token,
    cid,
    eid,
    rid,
    toProfile: account.payment_profiles[0].id,
    fromProfile: funding.payment_profiles[0].id,
  }
}

/** Adds a bank account with `details` to the payer's recipient; its credit profile id. */
export const addRecipientAccount = async (service: TestService, payer: Payer, details: unknown): Promise<string> => {
  const response = await service.request(
    "POST",
    `/api/v1/companies/${payer.cid}/recipients/${payer.rid}/bank_accounts`,
    { token: payer.token, body: { entity_id: payer.eid, beneficiary_details: details } },
  )
  expect(response.status, response.text).toBe(201)
  return response.body.data.payment_profiles[0].id
}

/** A quote request body. */
export const quoteBody = (
  from: string,
  to: string,
  amount: number,
  currency = "USD",
  extra: Record<string, unknown> = {},
) => ({ quote: { from_profile_id: from, to_profile_id: to, instructed_amount: { amount, currency }, ...extra } })

/** A payment request body. */
export const paymentBody = (quoteId: string, key: string, extra: Record<string, unknown> = {}) => ({
  payment_instruction: { payment_quote_id: quoteId, reason: "goods_purchased", idempotency_key: key, ...extra },
})

/** Creates a quote for the payer (ACH to ACH by default) and returns its id. */
export const createQuote = async (
  service: TestService,
  payer: Payer,
  amount: number,
  options: { readonly to?: string; readonly currency?: string } = {},
): Promise<string> => {
  const response = await service.request("POST", `/api/v1/companies/${payer.cid}/quotes`, {
    token: payer.token,
    body: quoteBody(payer.fromProfile, options.to ?? payer.toProfile, amount, options.currency ?? "USD"),
  })
  expect(response.status, response.text).toBe(201)
  return response.body.data.id
}

/** Moves the sandbox clock by `seconds` through the helper route; the answer's `jobs_run`. */
export const advanceClock = async (service: TestService, token: string, seconds: number): Promise<number> => {
  const response = await service.request("POST", "/api/v1/sandbox/clock/advance", { token, body: { seconds } })
  expect(response.status, response.text).toBe(200)
  return response.body.data.jobs_run
}

/**
 * Inserts, straight in storage, a copy of a funding account whose debit profile has no bank-link
 * connection: the API cannot make one (linking always connects), but the spec's error for it
 * must still be answered. Returns the new profile's id.
 */
export const insertUnconnectedDebitProfile = async (
  storage: Storage,
  companyId: string,
  fundingProfileId: string,
): Promise<string> =>
  storage.transaction(async (tx) => {
    const company = CompanyId.make(companyId)
    const profile = await tx.paymentProfiles.find(company, PaymentProfileId.make(fundingProfileId))
    const account = profile && (await tx.bankAccounts.find(company, profile.bank_account_id))
    if (profile === undefined || account === undefined) throw new Error(`no funding profile ${fundingProfileId}`)
    const suffix = Date.now().toString(36)
    const accountId = BankAccountId.make(`ba_unconnected_${suffix}`)
    await tx.bankAccounts.insert({ ...account, id: accountId, provider_connection_id: null })
    const id = PaymentProfileId.make(`pp_unconnected_${suffix}`)
    await tx.paymentProfiles.insert({ ...profile, id, bank_account_id: accountId })
    return id
  })
