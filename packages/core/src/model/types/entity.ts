import type { CompanyId, EntityId } from "./ids.ts"

// The types of `model/entity.ts`, written out (docs/decisions.md, "Public types").

/** An entity (the legal entity of a company) as the API returns it. */
export interface Entity {
  readonly id: EntityId
  readonly name: string
  /** ISO 3166-1 alpha-2. */
  readonly country_alpha2: string
  readonly company_id: CompanyId
  readonly created_at: string
  readonly updated_at: string
}

/**
 * An entity as storage keeps it. `payment_integration_active` is set once
 * the entity's payment-provider integration is complete (its feature is ACTIVE).
 */
export interface EntityRecord {
  readonly id: EntityId
  readonly name: string
  /** ISO 3166-1 alpha-2. */
  readonly country_alpha2: string
  readonly company_id: CompanyId
  readonly created_at: string
  readonly updated_at: string
  /** Set once the entity's payment-provider integration is complete (its feature is ACTIVE). */
  readonly payment_integration_active: boolean
  readonly deleted_at: string | null
}

/** Body of `POST /api/v1/companies/{cid}/entities`. */
export interface EntityCreate {
  readonly name: string
  readonly country_alpha2: string
}

/** Body of an entity's create, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface EntityCreateBody {
  readonly name: string
  readonly country_alpha2: string
}

/** Body of `PATCH /api/v1/companies/{cid}/entities/{id}`. */
export interface EntityUpdate {
  readonly name?: string
  readonly country_alpha2?: string
}

/** Body of an entity's update, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface EntityUpdateBody {
  readonly name?: string
  readonly country_alpha2?: string
}

/** Body of a successful entity delete. */
export interface EntityDeleted {
  readonly id: EntityId
  readonly message: string
}
