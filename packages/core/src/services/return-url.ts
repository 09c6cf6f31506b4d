import { Effect } from "effect"
import type { Invalid } from "../errors.ts"
import type { WorkspaceId } from "../model/ids.ts"
import type { Repositories } from "../ports/storage/index.ts"
import type { ServicePorts } from "./ports.ts"
import type { Lifted } from "./transaction.ts"

/**
 * The `return_url` a hosted-page token may carry (spec "Authentication" 5, DECISIONS "Trusted
 * domains"): when the workspace has a trusted-domain configuration, the URL if its host is
 * trusted, else 422 `return_url` "URL domain is not in the trusted domains list"; without a
 * configuration, or without a URL, undefined (the URL is ignored, not echoed).
 *
 * Issue 12 is building the configuration (`upsertTrustedDomainConfig`); until it lands every
 * workspace has none, so a URL is always ignored.
 */
export const checkedReturnUrl = (
  _ports: Pick<ServicePorts, "allowLocalWebhookUrls">,
  _tx: Lifted<Repositories>,
  _workspaceId: WorkspaceId,
  _returnUrl: string | undefined,
): Effect.Effect<string | undefined, Invalid> => Effect.succeed(undefined)
