import { Schema } from "effect"
import { countryCode, NonBlank, required, Timestamp } from "./fields.ts"
import { CompanyId, EntityId } from "./ids.ts"
import type * as Types from "./types/entity.ts"
import type { EntityRecord } from "./types/entity.ts"

export * from "./types/entity.ts"

const entityFields = {
  id: EntityId,
  name: Schema.String,
  country_alpha2: Schema.String.annotations({ description: "ISO 3166-1 alpha-2" }),
  company_id: CompanyId,
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The Schema of {@link Entity}, named so that declarations refer to it instead of copying it. */
export interface EntitySchema extends Schema.Struct<typeof entityFields> {}
/** An entity (the legal entity of a company) as the API returns it. */
export const Entity: EntitySchema = Schema.Struct(entityFields).annotations({ identifier: "Entity" })
export type Entity = Types.Entity

const storedEntityFields = {
  ...Entity.fields,
  /** Set once the entity's payment-provider integration is complete (its feature is ACTIVE). */
  payment_integration_active: Schema.Boolean,
  deleted_at: Schema.NullOr(Timestamp),
}

/** The Schema of {@link StoredEntity}, named so that declarations refer to it instead of copying it. */
export interface StoredEntitySchema extends Schema.Struct<typeof storedEntityFields> {}
/**
 * An entity as storage keeps it: the wire shape with its integration flag and soft-delete time.
 * The storage port's `EntityRecord` is its type.
 */
export const StoredEntity: StoredEntitySchema = Schema.Struct(storedEntityFields)

const countryAlpha2 = countryCode("Invalid country alpha2 code")

const entityCreateFields = {
  name: required(NonBlank, "Entity name is required"),
  country_alpha2: required(countryAlpha2, "Country alpha2 code is required"),
}

/** The Schema of {@link EntityCreate}, named so that declarations refer to it instead of copying it. */
export interface EntityCreateSchema extends Schema.Struct<typeof entityCreateFields> {}
/** Body of `POST /api/v1/companies/{cid}/entities`. */
export const EntityCreate: EntityCreateSchema = Schema.Struct(entityCreateFields).annotations({
  identifier: "EntityCreate",
})
export type EntityCreate = Types.EntityCreate

const entityUpdateFields = {
  name: Schema.optional(NonBlank),
  country_alpha2: Schema.optional(countryAlpha2),
}

/** The Schema of {@link EntityUpdate}, named so that declarations refer to it instead of copying it. */
export interface EntityUpdateSchema extends Schema.Struct<typeof entityUpdateFields> {}
/** Body of `PATCH /api/v1/companies/{cid}/entities/{id}`. */
export const EntityUpdate: EntityUpdateSchema = Schema.Struct(entityUpdateFields).annotations({
  identifier: "EntityUpdate",
})
export type EntityUpdate = Types.EntityUpdate

const entityDeletedFields = {
  id: EntityId,
  message: Schema.String,
}

/** The Schema of {@link EntityDeleted}, named so that declarations refer to it instead of copying it. */
export interface EntityDeletedSchema extends Schema.Struct<typeof entityDeletedFields> {}
/** Body of a successful entity delete. */
export const EntityDeleted: EntityDeletedSchema = Schema.Struct(entityDeletedFields).annotations({
  identifier: "EntityDeleted",
})
export type EntityDeleted = Types.EntityDeleted

/** A stored entity as the API returns it. */
export const toEntity = (row: EntityRecord): Entity => ({
  id: row.id,
  name: row.name,
  country_alpha2: row.country_alpha2,
  company_id: row.company_id,
  created_at: row.created_at,
  updated_at: row.updated_at,
})
