import {
  type Awaitable,
  brandId,
  type WebhookRecoveryRecord,
  type WebhookRecoveryRepository,
} from "@payments-engine/core"
import { expect } from "vitest"
import type { Harness } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import { counterIds } from "./test-ports.ts"

/** One port call in a transaction of its own. */
const onPort =
  (harness: Harness) =>
  <T>(call: (recoveries: WebhookRecoveryRepository) => Awaitable<T>): Promise<T> =>
    harness.storage.transaction((tx) => call(tx.webhookRecoveries))

/** Recoveries of failed deliveries: found only in their workspace, advanced only from the step they were read at. */
export const webhookRecoveryScenarios: ScenarioGroup = {
  title: "webhook recoveries",
  scenarios: [
    {
      id: "webhook-recoveries.store-and-advance",
      title:
        "every column round-trips; find is scoped by workspace; advance writes progress only from the status and cursor it was read with (null and set alike), on the workspace's recovery, one of two racing",
      run: async (harness) => {
        const port = onPort(harness)
        const ids = counterIds()
        const [ws, wsB] = [ids.next("ws"), ids.next("ws")]
        const at = "2030-04-01T00:00:00.000Z"
        const row: WebhookRecoveryRecord = {
          id: ids.next("wer"),
          workspace_id: ws,
          company_id: ids.next("cmp"),
          endpoint_id: ids.next("we"),
          status: "queued",
          since: "2030-03-25T00:00:00.000Z",
          until: at,
          deliveries_queued: 0,
          cursor: null,
          created_at: at,
          updated_at: at,
          completed_at: null,
        }
        await port((recoveries) => recoveries.insert(row))
        expect(await port((recoveries) => recoveries.find(ws, row.id))).toEqual(row)
        expect(await port((recoveries) => recoveries.find(wsB, row.id))).toBeUndefined()
        expect(await port((recoveries) => recoveries.find(ws, brandId("wer", "wer_unknown")))).toBeUndefined()

        const cursor = ids.next("whd")
        const first = {
          status: "running" as const,
          cursor,
          deliveries_queued: 100,
          updated_at: "2030-04-01T00:00:01.000Z",
          completed_at: null,
        }
        const advance = (
          workspace: typeof ws,
          from: Pick<WebhookRecoveryRecord, "status" | "cursor">,
          progress: typeof first | typeof last,
        ) => port((recoveries) => recoveries.advance(workspace, row.id, from, progress))
        const last = {
          status: "completed" as const,
          cursor: ids.next("whd"),
          deliveries_queued: 130,
          updated_at: "2030-04-01T00:00:02.000Z",
          completed_at: "2030-04-01T00:00:02.000Z",
        }
        expect(await advance(wsB, { status: "queued", cursor: null }, first)).toBeUndefined()
        expect(await advance(ws, { status: "running", cursor: null }, first)).toBeUndefined()
        expect(await advance(ws, { status: "queued", cursor }, first)).toBeUndefined()
        expect(await port((recoveries) => recoveries.find(ws, row.id))).toEqual(row)
        // Two runs of one step: one writes it.
        const racing = await Promise.all([0, 1].map(() => advance(ws, { status: "queued", cursor: null }, first)))
        expect(racing.filter((r) => r !== undefined)).toEqual([{ ...row, ...first }])
        expect(await advance(ws, { status: "queued", cursor: null }, first)).toBeUndefined()
        expect(await advance(ws, { status: "running", cursor: ids.next("whd") }, last)).toBeUndefined()
        expect(await advance(ws, { status: "running", cursor }, last)).toEqual({ ...row, ...last })
        expect(await port((recoveries) => recoveries.find(ws, row.id))).toEqual({ ...row, ...last })
      },
    },
  ],
}
