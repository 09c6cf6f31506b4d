import { Effect } from "effect"
import { Invalid } from "../../errors.ts"
import type { WorkspaceId } from "../../model/ids.ts"
import { trustedDomainsOf } from "../../model/trusted-domain-config.ts"

import { trustedDomainMessages, trustedReturnUrl } from "../../rules/trusted-domains.ts"
import type { ServicePorts } from "./service-ports.ts"
import type { Lifted, ReadRepositories } from "./transaction.ts"

/**
 * The `return_url` a hosted-page token may carry (spec "Authentication" 5, DECISIONS "Trusted
 * domains"): when the workspace has a trusted-domain configuration, the URL (normalised, as the
 * URL parser prints it) if it is `https:` (or, in sandbox mode, `http:` to localhost or
 * 127.0.0.1) and its host is trusted, else `invalid` on `return_url` "URL domain is not in the trusted
 * domains list"; without a configuration, or without a URL, undefined (the URL is ignored, not
 * echoed). Read in the caller's transaction, so the token is issued against the list as it is.
 */
export const checkedReturnUrl = (
  ports: Pick<ServicePorts, "allowLocalWebhookUrls">,
  tx: Lifted<ReadRepositories>,
  workspaceId: WorkspaceId,
  returnUrl: string | undefined,
): Effect.Effect<string | undefined, Invalid> =>
  Effect.gen(function* () {
    if (returnUrl === undefined) return undefined
    const config = yield* tx.trustedDomainConfigs.find(workspaceId)
    if (config === undefined) return undefined
    const trusted = trustedReturnUrl(returnUrl, trustedDomainsOf(config), {
      allowLocalHttp: ports.allowLocalWebhookUrls,
    })
    if (trusted === undefined) return yield* Effect.fail(Invalid.rule("return_url", trustedDomainMessages.untrusted))
    return trusted
  })
