import { Effect } from "effect"
import { type WebhookEventCategoryEntry, webhookEventListing } from "../../model/events.ts"

/** The event catalogue: what an endpoint may subscribe to. */
export const makeWebhookEvents = () => ({
  /**
   * Every webhook event, grouped by category in the spec's order, each with its name, display
   * name, action and description; the same for every caller.
   *
   * @example
   * const categories = await engine.webhookEvents.list()
   */
  list: (): Effect.Effect<ReadonlyArray<WebhookEventCategoryEntry>> => Effect.succeed(webhookEventListing),
})

export type WebhookEvents = ReturnType<typeof makeWebhookEvents>
