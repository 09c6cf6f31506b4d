import { Schema } from "effect"
import { Timestamp } from "./fields.ts"
import { TrustedDomainConfigId, WorkspaceId } from "./ids.ts"

/**
 * A workspace's trusted-domain configuration as the GraphQL API returns it (spec
 * "Authentication" 5): its id and its domains, normalised (lowercase, punycode, no trailing
 * dot; `*.example.com` for the subdomains of example.com).
 */
export const TrustedDomainConfig = Schema.Struct({
  id: TrustedDomainConfigId,
  domains: Schema.Array(Schema.String),
}).annotations({ identifier: "TrustedDomainConfig" })
export type TrustedDomainConfig = typeof TrustedDomainConfig.Type

/**
 * The configuration as storage keeps it: one per workspace, its domains as JSON text (an
 * array of normalised patterns). The storage port's `TrustedDomainConfigRecord` is its type.
 */
export const StoredTrustedDomainConfig = Schema.Struct({
  id: TrustedDomainConfigId,
  workspace_id: WorkspaceId,
  domains: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp,
})

/** A stored trusted-domain configuration: the type of {@link StoredTrustedDomainConfig}. */
export type TrustedDomainConfigRecord = typeof StoredTrustedDomainConfig.Type

const storedDomains = Schema.decodeUnknownSync(Schema.parseJson(Schema.Array(Schema.String)))

/** The domains of a stored configuration. */
export const trustedDomainsOf = (row: Pick<typeof StoredTrustedDomainConfig.Type, "domains">): ReadonlyArray<string> =>
  storedDomains(row.domains)

/** A stored configuration as the API returns it. */
export const toTrustedDomainConfig = (
  row: Pick<typeof StoredTrustedDomainConfig.Type, "id" | "domains">,
): TrustedDomainConfig => ({ id: row.id, domains: trustedDomainsOf(row) })
