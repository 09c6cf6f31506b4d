import { Schema } from "effect"
import { countryCode, NonBlank, required, Timestamp } from "./fields.ts"
import { CompanyId, EntityId } from "./ids.ts"

/** An entity (the legal entity of a company) as the API returns it. */
export const Entity = Schema.Struct({
  id: EntityId,
  name: Schema.String,
  country_alpha2: Schema.String.annotations({ description: "ISO 3166-1 alpha-2" }),
  company_id: CompanyId,
  created_at: Timestamp,
  updated_at: Timestamp,
}).annotations({ identifier: "Entity" })
export type Entity = typeof Entity.Type

/**
 * An entity as storage keeps it: the wire shape with its integration flag and soft-delete time.
 * The storage port's `EntityRecord` is its type.
 */
export const StoredEntity = Schema.Struct({
  ...Entity.fields,
  /** Set once the entity's payment-provider integration is complete (its feature is ACTIVE). */
  payment_integration_active: Schema.Boolean,
  deleted_at: Schema.NullOr(Timestamp),
})

/**
 * A stored entity: the type of {@link StoredEntity}. `payment_integration_active` is set once
 * the entity's payment-provider integration is complete (its feature is ACTIVE).
 */
export type EntityRecord = typeof StoredEntity.Type

const countryAlpha2 = countryCode("Invalid country alpha2 code")

/** Body of `POST /api/v1/companies/{cid}/entities`. */
export const EntityCreate = Schema.Struct({
  name: required(NonBlank, "Entity name is required"),
  country_alpha2: required(countryAlpha2, "Country alpha2 code is required"),
}).annotations({ identifier: "EntityCreate" })
export type EntityCreate = typeof EntityCreate.Type

/** Body of `PATCH /api/v1/companies/{cid}/entities/{id}`. */
export const EntityUpdate = Schema.Struct({
  name: Schema.optional(NonBlank),
  country_alpha2: Schema.optional(countryAlpha2),
}).annotations({ identifier: "EntityUpdate" })
export type EntityUpdate = typeof EntityUpdate.Type

/** Body of a successful entity delete. */
export const EntityDeleted = Schema.Struct({
  id: EntityId,
  message: Schema.String,
}).annotations({ identifier: "EntityDeleted" })
export type EntityDeleted = typeof EntityDeleted.Type

/** A stored entity as the API returns it. */
export const toEntity = (row: EntityRecord): Entity => ({
  id: row.id,
  name: row.name,
  country_alpha2: row.country_alpha2,
  company_id: row.company_id,
  created_at: row.created_at,
  updated_at: row.updated_at,
})
