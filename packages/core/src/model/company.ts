import { Schema } from "effect"
import { countryCode, currencyCode, NonBlank, required, Timestamp } from "./fields.ts"
import { CompanyId, WorkspaceId } from "./ids.ts"
import type * as Types from "./types/company.ts"
import type { CompanyRecord } from "./types/company.ts"

export * from "./types/company.ts"

/** How a company came to exist; only `api_client` companies may be deleted. Stored, never on the wire. */
export const CompanyRole = Schema.Literal("api_client", "platform")
export type CompanyRole = Types.CompanyRole

const companyFields = {
  id: CompanyId,
  name: Schema.String,
  country: Schema.String.annotations({ description: "ISO 3166-1 alpha-2" }),
  default_currency: Schema.String.annotations({ description: "ISO 4217" }),
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The Schema of {@link Company}, named so that declarations refer to it instead of copying it. */
export interface CompanySchema extends Schema.Struct<typeof companyFields> {}
/** A company as the API returns it. */
export const Company: CompanySchema = Schema.Struct(companyFields).annotations({ identifier: "Company" })
export type Company = Types.Company

const storedCompanyFields = {
  ...Company.fields,
  workspace_id: WorkspaceId,
  role: CompanyRole,
  deleted_at: Schema.NullOr(Timestamp),
}

/** The Schema of {@link StoredCompany}, named so that declarations refer to it instead of copying it. */
export interface StoredCompanySchema extends Schema.Struct<typeof storedCompanyFields> {}
/**
 * A company as storage keeps it: the wire shape with its workspace, role and soft-delete time.
 * The storage port's `CompanyRecord` is its type.
 */
export const StoredCompany: StoredCompanySchema = Schema.Struct(storedCompanyFields)

const country = countryCode("Invalid country code")
const defaultCurrency = currencyCode("Invalid currency code")

const companyCreateFields = {
  name: required(NonBlank, "Name is required"),
  country: required(country, "Country is required"),
  default_currency: required(defaultCurrency, "Default currency is required"),
}

/** The Schema of {@link CompanyCreate}, named so that declarations refer to it instead of copying it. */
export interface CompanyCreateSchema extends Schema.Struct<typeof companyCreateFields> {}
/** Body of `POST /api/v1/companies`. */
export const CompanyCreate: CompanyCreateSchema = Schema.Struct(companyCreateFields).annotations({
  identifier: "CompanyCreate",
})
export type CompanyCreate = Types.CompanyCreate

const companyUpdateFields = {
  name: Schema.optional(NonBlank),
  country: Schema.optional(country),
  default_currency: Schema.optional(defaultCurrency),
}

/** The Schema of {@link CompanyUpdate}, named so that declarations refer to it instead of copying it. */
export interface CompanyUpdateSchema extends Schema.Struct<typeof companyUpdateFields> {}
/** Body of `PATCH /api/v1/companies/{id}`: every field optional. */
export const CompanyUpdate: CompanyUpdateSchema = Schema.Struct(companyUpdateFields).annotations({
  identifier: "CompanyUpdate",
})
export type CompanyUpdate = Types.CompanyUpdate

/** A stored company as the API returns it. */
export const toCompany = (row: CompanyRecord): Company => ({
  id: row.id,
  name: row.name,
  country: row.country,
  default_currency: row.default_currency,
  created_at: row.created_at,
  updated_at: row.updated_at,
})
