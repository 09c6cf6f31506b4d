import { Schema } from "effect"
import { Timestamp } from "./fields.ts"
import { TrustedDomainConfigId, WorkspaceId } from "./ids.ts"
import type * as Types from "./types/trusted-domain-config.ts"

export * from "./types/trusted-domain-config.ts"

const trustedDomainConfigFields = {
  id: TrustedDomainConfigId,
  domains: Schema.Array(Schema.String),
}

/** The Schema of {@link TrustedDomainConfig}, named so that declarations refer to it instead of copying it. */
export interface TrustedDomainConfigSchema extends Schema.Struct<typeof trustedDomainConfigFields> {}
/**
 * A workspace's trusted-domain configuration as the GraphQL API returns it (spec
 * "Authentication" 5): its id and its domains, normalised (lowercase, punycode, no trailing
 * dot; `*.example.com` for the subdomains of example.com).
 */
export const TrustedDomainConfig: TrustedDomainConfigSchema = Schema.Struct(trustedDomainConfigFields).annotations({
  identifier: "TrustedDomainConfig",
})
export type TrustedDomainConfig = Types.TrustedDomainConfig

const storedTrustedDomainConfigFields = {
  id: TrustedDomainConfigId,
  workspace_id: WorkspaceId,
  domains: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The Schema of {@link StoredTrustedDomainConfig}, named so that declarations refer to it instead of copying it. */
export interface StoredTrustedDomainConfigSchema extends Schema.Struct<typeof storedTrustedDomainConfigFields> {}
/**
 * The configuration as storage keeps it: one per workspace, its domains as JSON text (an
 * array of normalised patterns). The storage port's `TrustedDomainConfigRecord` is its type.
 */
export const StoredTrustedDomainConfig: StoredTrustedDomainConfigSchema = Schema.Struct(storedTrustedDomainConfigFields)

const storedDomains = Schema.decodeUnknownSync(Schema.parseJson(Schema.Array(Schema.String)))

/** The domains of a stored configuration. */
export const trustedDomainsOf = (row: Pick<typeof StoredTrustedDomainConfig.Type, "domains">): ReadonlyArray<string> =>
  storedDomains(row.domains)

/** A stored configuration as the API returns it. */
export const toTrustedDomainConfig = (
  row: Pick<typeof StoredTrustedDomainConfig.Type, "id" | "domains">,
): TrustedDomainConfig => ({ id: row.id, domains: trustedDomainsOf(row) })
