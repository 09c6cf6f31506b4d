import { Effect } from "effect"
import { type Forbidden, Invalid } from "../../errors.ts"
import { type TrustedDomainConfig, toTrustedDomainConfig } from "../../model/trusted-domain-config.ts"
import type { TrustedDomainsBody } from "../../model/types/trusted-domain-config.ts"
import { checkTrustedDomains } from "../../rules/trusted-domains.ts"
import type { Actor } from "../steps/actor.ts"
import { checkedReturnUrl } from "../steps/return-url.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inRead } from "../steps/transaction.ts"
import { inWorkspace, writeAccess } from "../steps/use-case.ts"

/**
 * A workspace's trusted return domains (spec "Authentication" 5, DECISIONS "Trusted domains"):
 * the hosts a hosted-page token's `return_url` may point at. One configuration per workspace,
 * replaced whole by each upsert; `checkedReturnUrl` (services/return-url.ts) reads it.
 */

export const makeTrustedDomains = (ports: ServicePorts) => ({
  /**
   * Replaces the actor's workspace's list with `input.domains` (write scope): each a host name or
   * `*.` + host name, at most 50; stored normalised (lowercase, punycode, no trailing dot,
   * duplicates dropped). Every invalid entry fails at once as `invalid`, by field
   * (`domains.<index>`, or `domains` for the list).
   *
   * @example
   * const config = await engine.trustedDomains.upsert(actor, { domains: ["example.com", "*.example.com"] })
   */
  upsert: (actor: Actor, input: TrustedDomainsBody): Effect.Effect<TrustedDomainConfig, Invalid | Forbidden> =>
    Effect.gen(function* () {
      const domains = typeof input === "object" && input !== null ? (input as { domains?: unknown }).domains : undefined
      if (domains === undefined) return yield* Effect.fail(Invalid.missing("domains", "Domains are required"))
      const checked = checkTrustedDomains(domains)
      if ("errors" in checked) return yield* Effect.fail(new Invalid({ kind: "invalid", errors: checked.errors }))
      return yield* inWorkspace(ports, actor, ({ tx, readClock }) =>
        Effect.gen(function* () {
          const now = (yield* readClock).now().toISOString()
          const row = yield* tx.trustedDomainConfigs.upsert({
            id: ports.ids.next("tdc"),
            workspace_id: actor.workspaceId,
            domains: JSON.stringify(checked.domains),
            created_at: now,
            updated_at: now,
          })
          return toTrustedDomainConfig(row)
        }),
      )
    }).pipe(writeAccess(actor)),

  /**
   * The actor's workspace's configuration, or null when it has none (return URLs are then ignored).
   *
   * @example
   * const config = await engine.trustedDomains.get(actor) // { id: "tdc_...", domains: ["example.com"] } or null
   */
  get: (actor: Actor): Effect.Effect<TrustedDomainConfig | null> =>
    inRead(ports.storage, (tx) =>
      tx.trustedDomainConfigs
        .find(actor.workspaceId)
        .pipe(Effect.map((row) => (row === undefined ? null : toTrustedDomainConfig(row)))),
    ),

  /**
   * The return URL a hosted-page token of the actor's workspace would carry, checked as token
   * issuance checks it ({@link checkedReturnUrl}): the normalised URL when trusted,
   * `invalid` on `return_url` when not, undefined when the workspace has no configuration (or no URL is given).
   *
   * @example
   * await engine.trustedDomains.checkReturnUrl(actor, "https://pay.example.com/done") // "https://pay.example.com/done"
   */
  checkReturnUrl: (actor: Actor, returnUrl: string | undefined): Effect.Effect<string | undefined, Invalid> =>
    inRead(ports.storage, (tx) => checkedReturnUrl(ports, tx, actor.workspaceId, returnUrl)),
})

export type TrustedDomains = ReturnType<typeof makeTrustedDomains>
