import { Schema, Struct } from "effect"
import { required, Timestamp } from "./fields.ts"
import { ApplicationId, CompanyId, EntityId, WorkspaceId } from "./ids.ts"

/** The features an entity can enable; the spec has one. */
export const featureIdentifiers = ["multi_currency_account"] as const
export type FeatureIdentifier = (typeof featureIdentifiers)[number]

/** What a feature is called in responses. */
export const featureNames: Readonly<Record<FeatureIdentifier, string>> = {
  multi_currency_account: "Multi-Currency Account",
}

/** The statuses the sandbox helper can move a feature to: every status but the initial one. */
export const featureTargetStatuses = ["SUBMITTED", "ACTIVE", "ACTION_REQUIRED"] as const
export type FeatureTargetStatus = (typeof featureTargetStatuses)[number]

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

/**
 * Statuses of an entity feature application (the spec's Feature states); the feature machine
 * decides the moves between them.
 */
export const featureStatuses = ["CREATED", "SUBMITTED", "ACTIVE", "ACTION_REQUIRED"] as const

/** A feature's status. */
export type FeatureStatus = (typeof featureStatuses)[number]

/** Statuses of an entity feature; `FeatureStatus` and `FeatureStatusValue` are its type. */
export const FeatureStatusSchema = Schema.Literal(...featureStatuses)

/** A feature's status, as the model's Schema lists them. */
export type FeatureStatusValue = typeof FeatureStatusSchema.Type

/** An entity feature (an enablement application) as the API returns it. */
export const Feature = Schema.Struct({
  feature_identifier: Schema.Literal(...featureIdentifiers),
  feature_name: Schema.String.annotations({ description: "human-readable name", examples: ["Multi-Currency Account"] }),
  application_id: ApplicationId.annotations({ description: "identifies this enablement" }),
  status: FeatureStatusSchema,
}).annotations({ identifier: "Feature" })
export type Feature = typeof Feature.Type

/**
 * A feature as storage keeps it: the wire shape without its name (read from the identifier),
 * with its tenancy, machine version and timestamps. One feature per entity and identifier; the
 * application id is unique across workspaces. The storage port's `FeatureRecord` is its type.
 */
export const StoredFeature = Schema.Struct({
  ...Struct.omit(Feature.fields, "feature_name", "feature_identifier"),
  /** e.g. "multi_currency_account"; storage keeps any identifier. */
  feature_identifier: Schema.String,
  workspace_id: WorkspaceId,
  company_id: CompanyId,
  entity_id: EntityId,
  machine_version: Schema.Number,
  created_at: Timestamp,
  updated_at: Timestamp,
})

/** A stored feature: the type of {@link StoredFeature}. */
export type FeatureRecord = typeof StoredFeature.Type

/** Body of `POST /api/v1/companies/{cid}/entities/{eid}/features`. */
export const FeatureEnable = Schema.Struct({
  feature_identifier: required(
    Schema.Literal(...featureIdentifiers).annotations({
      message: () => ({ message: featureMessages.identifierInvalid, override: true }),
    }),
    featureMessages.identifierRequired,
  ),
}).annotations({ identifier: "FeatureEnable" })
export type FeatureEnable = typeof FeatureEnable.Type

/** Body of the sandbox helper `POST /api/v1/sandbox/features/{application_id}/status`. */
export const FeatureStatusChange = Schema.Struct({
  status: required(
    Schema.Literal(...featureTargetStatuses).annotations({
      message: () => ({ message: featureMessages.statusInvalid, override: true }),
    }),
    featureMessages.statusRequired,
  ),
}).annotations({ identifier: "FeatureStatusChange" })
export type FeatureStatusChange = typeof FeatureStatusChange.Type

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
