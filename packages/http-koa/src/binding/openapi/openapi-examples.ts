/** A JSON Schema or OpenAPI object, as plain JSON. */
type Json = { readonly [key: string]: unknown }

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const usAch = { account_number: "123456789", routing_number: "021000021", account_type: "checking" }

/**
 * Values of the fields a schema gives no example of, by field name: what a caller would send or
 * read, so the reference shows `"country": "US"` where Swagger UI would make up `"string"`.
 * `openapi-examples.test.ts` decodes every example built from them with the routes' own Schemas.
 */
const fieldExamples: Readonly<Record<string, unknown>> = {
  name: "Acme Inc",
  since: "2026-01-01T00:00:00.000Z",
  until: "2026-01-02T00:00:00.000Z",
  display_name: "Acme Inc",
  business_name: "Acme Inc",
  business_name_trading: "Acme",
  country: "US",
  country_alpha2: "US",
  country_code: "US",
  bank_country_code: "US",
  issuing_country: "US",
  nationality: "US",
  default_currency: "USD",
  currency: "USD",
  currency_code: "USD",
  fee_currency: "USD",
  source_amount_currency: "USD",
  target_amount_currency: "EUR",
  instructed_amount_currency: "EUR",
  source_amount: "100.00",
  target_amount: "92.00",
  instructed_amount: "92.00",
  amount: "92.00",
  current_balance: "1000.00",
  fee: "1.00",
  exchange_rate: 0.92,
  email: "jane@example.com",
  primary_contact_email: "jane@example.com",
  first_name: "Jane",
  last_name: "Doe",
  middle_name: "Ann",
  job_title: "Director",
  date_of_birth: "1990-01-31",
  business_start_date: "2020-01-31",
  effective_date: "2026-01-31",
  expiration_date: "2030-01-31",
  expected_completion_date: "2026-01-03",
  line1: "1 Main Street",
  line2: "Suite 100",
  street_address: "1 Main Street",
  city: "Springfield",
  state: "CA",
  state_of_incorporation: "DE",
  postal_code: "94105",
  postcode: "94105",
  url: "https://example.com/webhooks",
  return_url: "https://example.com/onboarding-done",
  website_url: "https://example.com",
  event_names: ["PaymentEvents::CompletedEvent"],
  event_name: "PaymentEvents::CompletedEvent",
  api_key: "pk_3kq9v2m8x7w1z5r4t6y0u2ab",
  api_secret: "sk_9f3k2m8x7w1z5r4t6y0u2abcde4g7h1j3k5m8n0p",
  access_token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwa18zIn0.c2lnbmF0dXJl",
  webhook_secret: "whsec_0a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p",
  token: "hpt_2b7c9d1e3f5g7h9j1k3m5n7p9q",
  description: "Invoice 2026-001",
  description_of_goods_services: "Software development services",
  company_id: "cmp_01KB8Z3K6W9Q2M4T8B5N1R0XYZ",
  entity_id: "ent_01KB8Z3K6W9Q2M4T8B5N1R0XYZ",
  owner_id: "ent_01KB8Z3K6W9Q2M4T8B5N1R0XYZ",
  recipient_id: "rcp_01KB8Z3K6W9Q2M4T8B5N1R0XYZ",
  from_profile_id: "pp_01KB8Z3K6W9Q2M4T8B5N1R0XYZ",
  to_profile_id: "pp_01KB8Z3K6W9Q2M4T8B5N1R0XZ0",
  quote_id: "qt_01KB8Z3K6W9Q2M4T8B5N1R0XYZ",
  payment_quote_id: "qt_01KB8Z3K6W9Q2M4T8B5N1R0XYZ",
  payment_batch_id: "pb_01KB8Z3K6W9Q2M4T8B5N1R0XYZ",
  application_id: "app_01KB8Z3K6W9Q2M4T8B5N1R0XYZ",
  endpoint_id: "we_01KB8Z3K6W9Q2M4T8B5N1R0XYZ",
  event_id: "evt_01KB8Z3K6W9Q2M4T8B5N1R0XYZ",
  institution_id: "ins_sandbox_1",
  beneficiary_details: usAch,
  routing_number: "021000021",
  seconds: 3600,
  label: "Main account",
  mobile: "4155550100",
  mobile_country_code: "1",
  primary_contact_mobile: "4155550100",
  primary_contact_mobile_country_code: "1",
  contact_phone: "+14155550100",
  phone_number: "+14155550100",
  identification_number: "123-45-6789",
  identifier_number: "12-3456789",
}

/** Whether a field's example is of the type its schema says (`amount` is text in one place, an object in another). */
const fits = (value: unknown, schema: Json): boolean => {
  switch (schema.type) {
    case "string":
      return typeof value === "string"
    case "integer":
    case "number":
      return typeof value === "number"
    case "boolean":
      return typeof value === "boolean"
    case "array":
      return Array.isArray(value)
    case "object":
      return isObject(value) && !isObject(schema.properties)
    default:
      return true
  }
}

/** The id prefix of a schema's `id`, by the schema's name: a company's id is `cmp_...`. */
const idPrefixes: Readonly<Record<string, string>> = {
  Company: "cmp",
  Entity: "ent",
  EntityDeleted: "ent",
  Recipient: "rcp",
  BankAccount: "ba",
  PaymentProfile: "pp",
  PaymentProfileSummary: "pp",
  Quote: "qt",
  PaymentInstruction: "pay",
  PaymentBatch: "pb",
  HostedPageToken: "hpt",
  WebhookEndpoint: "we",
  WebhookEndpointCreated: "we",
  WebhookDelivery: "whd",
  WebhookRecovery: "wer",
  EntityOnboarding: "onb",
  OnboardingPerson: "per",
  OnboardingAttachment: "att",
}

const resolve = (schema: Json, definitions: Readonly<Record<string, unknown>>): Json => {
  const ref = schema.$ref
  if (typeof ref !== "string") return schema
  const target = definitions[ref.slice(ref.lastIndexOf("/") + 1)]
  return isObject(target) ? resolve(target, definitions) : {}
}

/**
 * An example of a JSON Schema of the document: the schema's own example when it has one, else a
 * value by field name, else the first of a union or enum, else a value of its type. Optional
 * fields are left out of request bodies, so an example shows what must be sent.
 *
 * @example
 * exampleOf({ type: "object", properties: { name: { type: "string" } }, required: ["name"] }, {}, "request")
 * // { name: "Acme Inc" }
 */
export const exampleOf = (
  schema: unknown,
  definitions: Readonly<Record<string, unknown>>,
  side: "request" | "response",
  field?: string,
  depth = 0,
): unknown => {
  if (!isObject(schema) || depth > 12) return null
  const own = resolve(schema, definitions)
  const name = typeof schema.$ref === "string" ? schema.$ref.slice(schema.$ref.lastIndexOf("/") + 1) : undefined
  const prefix = name === undefined ? undefined : idPrefixes[name]
  if (Array.isArray(own.examples) && own.examples.length > 0) return own.examples[0]
  if ("const" in own) return own.const
  if (Array.isArray(own.enum) && own.enum.length > 0) return own.enum[0]
  const union = (own.anyOf ?? own.oneOf) as ReadonlyArray<unknown> | undefined
  if (Array.isArray(union)) {
    const branch = union.find((b) => !(isObject(b) && b.type === "null")) ?? union[0]
    return exampleOf(branch, definitions, side, field, depth + 1)
  }
  const named = field === undefined ? undefined : fieldExamples[field]
  if (named !== undefined && fits(named, own)) return named
  if (own.type === "array") return [exampleOf(own.items, definitions, side, field, depth + 1)]
  if (own.type === "object" || isObject(own.properties)) {
    const required = new Set(Array.isArray(own.required) ? own.required : [])
    const properties = isObject(own.properties) ? own.properties : {}
    return Object.fromEntries(
      Object.entries(properties)
        .filter(([name]) => side === "response" || required.has(name))
        .map(([key, property]) => [
          key,
          key === "id" && prefix !== undefined
            ? `${prefix}_01KB8Z3K6W9Q2M4T8B5N1R0XYZ`
            : exampleOf(property, definitions, side, key, depth + 1),
        ]),
    )
  }
  if (own.type === "integer" || own.type === "number") return typeof own.minimum === "number" ? own.minimum : 1
  if (own.type === "boolean") return true
  if (own.type === "null") return null
  if (own.format === "date-time") return "2026-01-01T00:00:00.000Z"
  return typeof own.minLength === "number" && own.minLength > 6 ? "x".repeat(own.minLength) : "string"
}

/** The error body the routes answer with `status`, as an example: its usual field and message. */
export const errorExampleOf = (status: number, shape: "general" | "webhook"): unknown => {
  const [field, message] = errorProblems[status] ?? ["base", "Internal server error"]
  if (shape === "webhook") {
    const code = status === 404 ? "not_found" : "validation_error"
    return { error: { code, message, details: [{ field, message }] } }
  }
  return { errors: [{ field, message }] }
}

const errorProblems: Readonly<Record<number, readonly [string, string]>> = {
  400: ["body", "Malformed JSON"],
  401: ["token", "Missing or invalid token"],
  403: ["base", "API key does not have permission for this action"],
  404: ["path", "Not found"],
  406: ["base", "Not acceptable"],
  409: ["base", "A request with this idempotency key is in progress"],
  413: ["body", "Payload too large"],
  415: ["body", "Content-Type must be application/json"],
  422: ["name", "Name is required"],
  429: ["base", "Rate limit exceeded. Please try again later."],
  500: ["base", "Internal server error"],
  503: ["base", "Too many uploads in progress. Please try again later."],
}
