import { Effect } from "effect"
import type { EventRecord, Repositories } from "../ports/storage/index.ts"
import type { EnginePorts } from "./ports.ts"
import type { Lifted } from "./transaction.ts"

/** What an outbox row needs besides its id and time. */
export interface OutgoingEvent {
  readonly workspaceId: string
  readonly companyId: string
  readonly event: string
  readonly resourceId: string
  /** The webhook body, exactly as it will be delivered. */
  readonly payload: unknown
}

/** Appends events to the outbox, in the caller's transaction. */
export const appendEvents = (
  ports: Pick<EnginePorts, "ids" | "clock">,
  tx: Lifted<Repositories>,
  events: ReadonlyArray<OutgoingEvent>,
): Effect.Effect<void> =>
  Effect.forEach(
    events,
    (e) => {
      const row: EventRecord = {
        id: ports.ids.next("evt"),
        workspace_id: e.workspaceId,
        company_id: e.companyId,
        event: e.event,
        resource_id: e.resourceId,
        payload: JSON.stringify(e.payload),
        created_at: ports.clock.now().toISOString(),
      }
      return tx.events.append(row)
    },
    { discard: true },
  )

/** Unix seconds, the timestamp of bank-account and payment-profile webhooks. */
export const unixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000)
