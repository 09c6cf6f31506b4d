import type { TrustedDomainConfigId, WorkspaceId } from "./ids.ts"

// The types of `model/trusted-domain-config.ts`, written out (docs/decisions.md, "Public types").

/**
 * A workspace's trusted-domain configuration as the GraphQL API returns it (spec
 * "Authentication" 5): its id and its domains, normalised (lowercase, punycode, no trailing
 * dot; `*.example.com` for the subdomains of example.com).
 */
export interface TrustedDomainConfig {
  readonly id: TrustedDomainConfigId
  readonly domains: ReadonlyArray<string>
}

/** A trusted-domain configuration as storage keeps it. */
export interface TrustedDomainConfigRecord {
  readonly id: TrustedDomainConfigId
  readonly workspace_id: WorkspaceId
  readonly domains: string
  readonly created_at: string
  readonly updated_at: string
}

/** The input of `trustedDomains.upsert`: the whole list of trusted return domains. */
export interface TrustedDomainsBody {
  readonly domains: ReadonlyArray<string>
}
