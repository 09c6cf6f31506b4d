import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { ProviderFailure } from "../errors.ts"
import { maxLanePayments } from "../model/job-kinds.ts"
import { type JobHandlerTable, jobCatalogue, jobLogFields, UndecodableJob } from "./job-catalogue.ts"

const handlerTable = (calls: Array<string>): JobHandlerTable => ({
  execute_payment: ({ payment_id, workspace_id }) => {
    calls.push(`execute ${payment_id} ${workspace_id}`)
    return payment_id === "pay_down"
      ? Effect.fail(new ProviderFailure({ field: "base", message: "down" }))
      : Effect.succeed("completed" as const)
  },
  settle_unknown_payments: () => {
    calls.push("settle unknown")
    return Effect.succeed(0)
  },
  process_batch: ({ batch_id, workspace_id }) => {
    calls.push(`start ${batch_id} ${workspace_id}`)
    return Effect.succeed(1)
  },
  execute_batch_payments: ({ batch_id, workspace_id, payment_ids }, run) => {
    calls.push(`lane ${batch_id} ${workspace_id} ${payment_ids.join(",")} attempt ${run.attempt}`)
    return Effect.succeed(payment_ids.length)
  },
  expire_batch: ({ batch_id, workspace_id }) => {
    calls.push(`expire ${batch_id} ${workspace_id}`)
    return Effect.succeed(undefined)
  },
  deliver_webhook: ({ delivery_id, workspace_id, attempt_count }) => {
    calls.push(`deliver ${delivery_id} ${workspace_id} after ${attempt_count}`)
    return Effect.succeed("succeeded")
  },
  recover_webhook_deliveries: ({ recovery_id, workspace_id }) => {
    calls.push(`recover ${recovery_id} ${workspace_id}`)
    return Effect.succeed(0)
  },
  purge_idempotency: () => {
    calls.push("purge")
    return Effect.succeed(0)
  },
  purge_used_hosted_page_tokens: () => {
    calls.push("purge used tokens")
    return Effect.succeed(0)
  },
})

const catalogue = (calls: Array<string>) => jobCatalogue(handlerTable(calls))

describe("the job catalogue", () => {
  it("runs a kind's handler with the payload its schema decodes", async () => {
    const calls: Array<string> = []
    await catalogue(calls).run("execute_payment", { payment_id: "pay_1", workspace_id: "ws_1" })
    await catalogue(calls).run("purge_idempotency", {})
    await catalogue(calls).run("purge_used_hosted_page_tokens", {})
    await catalogue(calls).run("process_batch", { batch_id: "pb_1", workspace_id: "ws_1" })
    await catalogue(calls).run("expire_batch", { batch_id: "pb_2", workspace_id: "ws_1" })
    await catalogue(calls).run("settle_unknown_payments", {})
    await catalogue(calls).run(
      "execute_batch_payments",
      { batch_id: "pb_1", workspace_id: "ws_1", payment_ids: ["pay_2", "pay_3"] },
      { attempt: 2 },
    )
    expect(calls).toEqual([
      "execute pay_1 ws_1",
      "purge",
      "purge used tokens",
      "start pb_1 ws_1",
      "expire pb_2 ws_1",
      "settle unknown",
      "lane pb_1 ws_1 pay_2,pay_3 attempt 2",
    ])
  })

  it("rejects, without running anything, a kind it does not know or a payload its schema refuses", async () => {
    const calls: Array<string> = []
    await expect(catalogue(calls).run("mine_bitcoin", {})).rejects.toBeInstanceOf(UndecodableJob)
    await expect(catalogue(calls).run("execute_payment", { payment_id: 7 })).rejects.toBeInstanceOf(UndecodableJob)
    const lane = { batch_id: "pb_1", workspace_id: "ws_1" }
    for (const payment_ids of [[], Array.from({ length: maxLanePayments + 1 }, (_, i) => `pay_${i}`)]) {
      await expect(catalogue(calls).run("execute_batch_payments", { ...lane, payment_ids })).rejects.toBeInstanceOf(
        UndecodableJob,
      )
    }
    expect(calls).toEqual([])
  })

  it("rejects with the handler's domain error, so the runner retries", async () => {
    await expect(
      catalogue([]).run("execute_payment", { payment_id: "pay_down", workspace_id: "ws_1" }),
    ).rejects.toBeInstanceOf(ProviderFailure)
  })

  it("tells runners the hourly schedule of the idempotency purge and the minutely one of unknown outcomes", () => {
    expect(catalogue([]).kinds).toContainEqual({
      kind: "purge_idempotency",
      lane: "housekeeping",
      schedule: { cron: "0 * * * *", everyMs: 3_600_000 },
    })
    expect(catalogue([]).kinds).toContainEqual({
      kind: "settle_unknown_payments",
      lane: "housekeeping",
      schedule: { cron: "* * * * *", everyMs: 60_000 },
    })
  })

  it("puts single payments, batches and webhook deliveries in lanes of their own", () => {
    const laneOf = (kind: string) => catalogue([]).kinds.find((k) => k.kind === kind)?.lane
    expect(laneOf("execute_payment")).toBe("payments")
    expect(["process_batch", "execute_batch_payments", "expire_batch"].map(laneOf)).toEqual([
      "batches",
      "batches",
      "batches",
    ])
    expect(laneOf("deliver_webhook")).toBe("webhooks")
  })

  it("takes a handler for every kind, or does not compile", () => {
    const { settle_unknown_payments: _left, ...withoutOne } = handlerTable([])
    // @ts-expect-error settle_unknown_payments has no handler
    expect(jobCatalogue(withoutOne).kinds).toContainEqual(expect.objectContaining({ kind: "settle_unknown_payments" }))
  })
})

describe("jobLogFields", () => {
  it("keeps the ids a payload names and a lane's payment count, and nothing else", () => {
    expect(jobLogFields({ payment_id: "pay_1", workspace_id: "ws_1" })).toEqual({
      payment_id: "pay_1",
      workspace_id: "ws_1",
    })
    expect(jobLogFields({ delivery_id: "whd_1", workspace_id: "ws_1", attempt_count: 2, company_id: "cmp_1" })).toEqual(
      {
        delivery_id: "whd_1",
        workspace_id: "ws_1",
        company_id: "cmp_1",
      },
    )
    expect(jobLogFields({ batch_id: "pb_1", workspace_id: "ws_1", payment_ids: ["pay_1", "pay_2"] })).toEqual({
      batch_id: "pb_1",
      workspace_id: "ws_1",
      payment_count: 2,
    })
    // Not an id: text that could be anything is never logged.
    expect(jobLogFields({ payment_id: "4111 1111 1111 1111", batch_id: 7, account_number: "12345678" })).toEqual({})
    for (const payload of [null, "pay_1", 3, []]) expect(jobLogFields(payload)).toEqual({})
  })
})
