import { Schema, Struct } from "effect"
import { required, Timestamp } from "./fields.ts"
import { ApplicationId, CompanyId, EntityId, WorkspaceId } from "./ids.ts"
import type * as Types from "./types/feature.ts"
import type { FeatureRecord } from "./types/feature.ts"
import { type FeatureIdentifier, featureIdentifiers, featureStatuses, featureTargetStatuses } from "./types/feature.ts"

export * from "./types/feature.ts"

/** What a feature is called in responses. */
export const featureNames: Readonly<Record<FeatureIdentifier, string>> = {
  multi_currency_account: "Multi-Currency Account",
}

/** The spec's messages for features, and ours where it has none. */
export const featureMessages = {
  identifierRequired: "Feature identifier is required",
  identifierInvalid: `Invalid feature identifier. Available features: ${featureIdentifiers.join(", ")}`,
  usEntitiesOnly: "Multi-currency account is only available for US entities",
  alreadyExists: (status: string) =>
    `Multi-currency account already exists with status: ${status}. Cannot create a new account.`,
  applicationNotFound: "Application not found",
  statusRequired: "Status is required",
  statusInvalid: `must be one of: ${featureTargetStatuses.join(", ")}`,
  transitionRefused: (from: string, to: string) => `Cannot change application status from ${from} to ${to}`,
  statusRaced: "Application status was changed by another request; fetch it and try again",
  businessNameRequired: "Business name is required before submitting",
  addressLineRequired: "Address line 1 is required before submitting",
  cityRequired: "City is required before submitting",
  postalCodeRequired: "Postal code is required before submitting",
  countryRequired: "Country is required before submitting",
  personRequired: "Add at least one person before submitting",
} as const

/** Statuses of an entity feature; `FeatureStatus` and `FeatureStatusValue` are its type. */
export const FeatureStatusSchema = Schema.Literal(...featureStatuses)

const featureFields = {
  feature_identifier: Schema.Literal(...featureIdentifiers),
  feature_name: Schema.String.annotations({ description: "human-readable name", examples: ["Multi-Currency Account"] }),
  application_id: ApplicationId.annotations({ description: "identifies this enablement" }),
  status: FeatureStatusSchema,
}

/** The Schema of {@link Feature}, named so that declarations refer to it instead of copying it. */
export interface FeatureSchema extends Schema.Struct<typeof featureFields> {}
/** An entity feature (an enablement application) as the API returns it. */
export const Feature: FeatureSchema = Schema.Struct(featureFields).annotations({ identifier: "Feature" })
export type Feature = Types.Feature

const storedFeatureFields = {
  ...Struct.omit(Feature.fields, "feature_name", "feature_identifier"),
  /** e.g. "multi_currency_account"; storage keeps any identifier. */
  feature_identifier: Schema.String,
  workspace_id: WorkspaceId,
  company_id: CompanyId,
  entity_id: EntityId,
  machine_version: Schema.Number,
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The Schema of {@link StoredFeature}, named so that declarations refer to it instead of copying it. */
export interface StoredFeatureSchema extends Schema.Struct<typeof storedFeatureFields> {}
/**
 * A feature as storage keeps it: the wire shape without its name (read from the identifier),
 * with its tenancy, machine version and timestamps. One feature per entity and identifier; the
 * application id is unique across workspaces. The storage port's `FeatureRecord` is its type.
 */
export const StoredFeature: StoredFeatureSchema = Schema.Struct(storedFeatureFields)

const featureEnableFields = {
  feature_identifier: required(
    Schema.Literal(...featureIdentifiers).annotations({
      message: () => ({ message: featureMessages.identifierInvalid, override: true }),
    }),
    featureMessages.identifierRequired,
  ),
}

/** The Schema of {@link FeatureEnable}, named so that declarations refer to it instead of copying it. */
export interface FeatureEnableSchema extends Schema.Struct<typeof featureEnableFields> {}
/** Body of `POST /api/v1/companies/{cid}/entities/{eid}/features`. */
export const FeatureEnable: FeatureEnableSchema = Schema.Struct(featureEnableFields).annotations({
  identifier: "FeatureEnable",
})
export type FeatureEnable = Types.FeatureEnable

const featureStatusChangeFields = {
  status: required(
    Schema.Literal(...featureTargetStatuses).annotations({
      message: () => ({ message: featureMessages.statusInvalid, override: true }),
    }),
    featureMessages.statusRequired,
  ),
}

/** The Schema of {@link FeatureStatusChange}, named so that declarations refer to it instead of copying it. */
export interface FeatureStatusChangeSchema extends Schema.Struct<typeof featureStatusChangeFields> {}
/** Body of the sandbox helper `POST /api/v1/sandbox/features/{application_id}/status`. */
export const FeatureStatusChange: FeatureStatusChangeSchema = Schema.Struct(featureStatusChangeFields).annotations({
  identifier: "FeatureStatusChange",
})
export type FeatureStatusChange = Types.FeatureStatusChange

/** A stored feature as the API returns it, named from its identifier. */
export const toFeature = (row: FeatureRecord): Feature => {
  const identifier = row.feature_identifier as FeatureIdentifier
  return {
    feature_identifier: identifier,
    feature_name: featureNames[identifier],
    application_id: row.application_id,
    status: row.status,
  }
}
