import type { ApplicationId, CompanyId, EntityId, WorkspaceId } from "./ids.ts"

// The types of `model/feature.ts`, written out (docs/decisions.md, "Public types").

/** The features an entity can enable; the spec has one. */
export const featureIdentifiers = ["multi_currency_account"] as const
export type FeatureIdentifier = (typeof featureIdentifiers)[number]

/** The statuses the sandbox helper can move a feature to: every status but the initial one. */
export const featureTargetStatuses = ["SUBMITTED", "ACTIVE", "ACTION_REQUIRED"] as const
export type FeatureTargetStatus = (typeof featureTargetStatuses)[number]

/**
 * Statuses of an entity feature application (the spec's Feature states); the feature machine
 * decides the moves between them.
 */
export const featureStatuses = ["CREATED", "SUBMITTED", "ACTIVE", "ACTION_REQUIRED"] as const

/** A feature's status. */
export type FeatureStatus = (typeof featureStatuses)[number]

/** A feature's status, as the model's Schema lists them. */
export type FeatureStatusValue = FeatureStatus

/** An entity feature (an enablement application) as the API returns it. */
export interface Feature {
  readonly feature_identifier: FeatureIdentifier
  /** Human-readable name. */
  readonly feature_name: string
  /** Identifies this enablement. */
  readonly application_id: ApplicationId
  readonly status: FeatureStatus
}

/** A feature as storage keeps it. */
export interface FeatureRecord {
  /** Identifies this enablement. */
  readonly application_id: ApplicationId
  readonly status: FeatureStatus
  /** e.g. "multi_currency_account"; storage keeps any identifier. */
  readonly feature_identifier: string
  readonly workspace_id: WorkspaceId
  readonly company_id: CompanyId
  readonly entity_id: EntityId
  readonly machine_version: number
  readonly created_at: string
  readonly updated_at: string
}

/** Body of `POST /api/v1/companies/{cid}/entities/{eid}/features`. */
export interface FeatureEnable {
  readonly feature_identifier: FeatureIdentifier
}

/** Body of a feature's enable, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface FeatureEnableBody {
  readonly feature_identifier: FeatureIdentifier
}

/** Body of the sandbox helper `POST /api/v1/sandbox/features/{application_id}/status`. */
export interface FeatureStatusChange {
  readonly status: FeatureTargetStatus
}

/** Body of the sandbox's feature status change, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface FeatureStatusChangeBody {
  readonly status: FeatureTargetStatus
}

/** What enabling answers: the feature, and whether this call created it or found it. */
export interface FeatureEnabled {
  readonly feature: Feature
  readonly created: boolean
}
