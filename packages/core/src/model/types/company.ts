import type { CompanyId, WorkspaceId } from "./ids.ts"

// The types of `model/company.ts`, written out (docs/decisions.md, "Public types").

/** How a company came to exist; only `api_client` companies may be deleted. Stored, never on the wire. */
export type CompanyRole = "api_client" | "platform"

/** A company as the API returns it. */
export interface Company {
  readonly id: CompanyId
  readonly name: string
  /** ISO 3166-1 alpha-2. */
  readonly country: string
  /** ISO 4217. */
  readonly default_currency: string
  readonly created_at: string
  readonly updated_at: string
}

/** A company as storage keeps it. */
export interface CompanyRecord {
  readonly id: CompanyId
  readonly name: string
  /** ISO 3166-1 alpha-2. */
  readonly country: string
  /** ISO 4217. */
  readonly default_currency: string
  readonly created_at: string
  readonly updated_at: string
  readonly workspace_id: WorkspaceId
  readonly role: CompanyRole
  readonly deleted_at: string | null
}

/** Body of `POST /api/v1/companies`. */
export interface CompanyCreate {
  readonly name: string
  readonly country: string
  readonly default_currency: string
}

/** Body of `POST /api/v1/companies`, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface CompanyCreateBody {
  readonly name: string
  readonly country: string
  readonly default_currency: string
}

/** Body of `PATCH /api/v1/companies/{id}`: every field optional. */
export interface CompanyUpdate {
  readonly name?: string
  readonly country?: string
  readonly default_currency?: string
}

/** Body of `PATCH /api/v1/companies/{id}`, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface CompanyUpdateBody {
  readonly name?: string
  readonly country?: string
  readonly default_currency?: string
}

/** Options an embedder may pass when creating a company outside the API. */
export interface CompanyCreateOptions {
  /** Defaults to `api_client`, the role of every company created through the API. */
  readonly role?: CompanyRole
}
