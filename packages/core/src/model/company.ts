import { Schema } from "effect"
import { countryCode, currencyCode, NonBlank, required, Timestamp } from "./fields.ts"
import { CompanyId, WorkspaceId } from "./ids.ts"

/** How a company came to exist; only `api_client` companies may be deleted. Stored, never on the wire. */
export const CompanyRole = Schema.Literal("api_client", "platform")
export type CompanyRole = typeof CompanyRole.Type

/** A company as the API returns it. */
export const Company = Schema.Struct({
  id: CompanyId,
  name: Schema.String,
  country: Schema.String.annotations({ description: "ISO 3166-1 alpha-2" }),
  default_currency: Schema.String.annotations({ description: "ISO 4217" }),
  created_at: Timestamp,
  updated_at: Timestamp,
}).annotations({ identifier: "Company" })
export type Company = typeof Company.Type

/**
 * A company as storage keeps it: the wire shape with its workspace, role and soft-delete time.
 * The storage port's `CompanyRecord` is its type.
 */
export const StoredCompany = Schema.Struct({
  ...Company.fields,
  workspace_id: WorkspaceId,
  role: CompanyRole,
  deleted_at: Schema.NullOr(Timestamp),
})

/** A stored company: the type of {@link StoredCompany}. */
export type CompanyRecord = typeof StoredCompany.Type

const country = countryCode("Invalid country code")
const defaultCurrency = currencyCode("Invalid currency code")

/** Body of `POST /api/v1/companies`. */
export const CompanyCreate = Schema.Struct({
  name: required(NonBlank, "Name is required"),
  country: required(country, "Country is required"),
  default_currency: required(defaultCurrency, "Default currency is required"),
}).annotations({ identifier: "CompanyCreate" })
export type CompanyCreate = typeof CompanyCreate.Type

/** Body of `PATCH /api/v1/companies/{id}`: every field optional. */
export const CompanyUpdate = Schema.Struct({
  name: Schema.optional(NonBlank),
  country: Schema.optional(country),
  default_currency: Schema.optional(defaultCurrency),
}).annotations({ identifier: "CompanyUpdate" })
export type CompanyUpdate = typeof CompanyUpdate.Type

/** A stored company as the API returns it. */
export const toCompany = (row: CompanyRecord): Company => ({
  id: row.id,
  name: row.name,
  country: row.country,
  default_currency: row.default_currency,
  created_at: row.created_at,
  updated_at: row.updated_at,
})
