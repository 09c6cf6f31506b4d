import { graphqlRoutes } from "../graphql/graphql-route.ts"
import { bankAccountRoutes } from "./bank-accounts.ts"
import { companyRoutes } from "./companies.ts"
import { entityRoutes } from "./entities.ts"
import { eventRoutes } from "./events.ts"
import { featureRoutes } from "./features.ts"
import { hostedPageTokenRoutes } from "./hosted-page-tokens.ts"
import { onboardingRoutes } from "./onboarding.ts"
import { paymentBatchRoutes } from "./payment-batches.ts"
import { paymentMethodRoutes } from "./payment-methods.ts"
import { paymentRoutes } from "./payments.ts"
import { quoteRoutes } from "./quotes.ts"
import { recipientRoutes } from "./recipients.ts"
import type { RouteSpec } from "./route-table.ts"
import { sessionRoutes } from "./sessions.ts"
import { systemRoutes } from "./system.ts"
import { webhookEndpointRoutes } from "./webhook-endpoints.ts"
import { workspaceBrandingRoutes } from "./workspace-branding.ts"

/**
 * The route table of the service: every row is registered in Koa and described in the OpenAPI
 * document. New endpoints are new rows here.
 *
 * @example
 * declare const myRoutes: RouteSpec[]
 * const app = createApp({ engine, tokens, routes: [...apiRoutes, ...myRoutes] })
 */
export const apiRoutes: ReadonlyArray<RouteSpec> = [
  ...systemRoutes,
  ...sessionRoutes,
  ...companyRoutes,
  ...entityRoutes,
  ...featureRoutes,
  ...hostedPageTokenRoutes,
  ...onboardingRoutes,
  ...recipientRoutes,
  ...paymentMethodRoutes,
  ...bankAccountRoutes,
  ...quoteRoutes,
  ...paymentRoutes,
  ...paymentBatchRoutes,
  ...webhookEndpointRoutes,
  ...eventRoutes,
  ...workspaceBrandingRoutes,
  ...graphqlRoutes,
]
