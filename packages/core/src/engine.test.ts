import { describe, expect, it } from "vitest"
import { createEngine } from "./engine.ts"
import { Invalid } from "./errors.ts"
import { brandId } from "./model/ids.ts"
import type { BankLinkProvider } from "./ports/bank-link-provider.ts"
import type { PaymentProvider } from "./ports/payment-provider.ts"
import type { Storage } from "./ports/storage/index.ts"

/** An engine whose ports are never reached: these tests stop before storage and providers. */
const unreachable = () => {
  throw new Error("not reached")
}
const storage: Storage = {
  capabilities: { multiProcess: false, concurrentTransactions: false },
  transaction: async () => unreachable(),
  createJobRunner: () => unreachable(),
  close: async () => {},
}
const engine = createEngine({
  storage,
  clock: { now: () => new Date("2026-11-23T00:00:00.000Z") },
  ids: { next: (prefix) => brandId(prefix, `${prefix}_1`) },
  hasher: { hash: async () => unreachable(), verify: async () => unreachable() },
  serverSecret: { read: async () => unreachable() },
  paymentProvider: {} as PaymentProvider,
  bankLinker: {} as BankLinkProvider,
})

describe("createEngine", () => {
  it("offers every service of the registry as promises, use case for use case", () => {
    const { effect, close, jobs, ...services } = engine
    expect(typeof close).toBe("function")
    expect(Object.keys(jobs).sort()).toEqual(["runDue", "start", "stop"])
    expect(Object.keys(services).sort()).toEqual(Object.keys(effect).sort())
    for (const [name, useCases] of Object.entries(services)) {
      expect(Object.keys(useCases).sort(), name).toEqual(Object.keys(effect[name as keyof typeof effect]).sort())
    }
  })

  it("rejects with the domain error itself", async () => {
    const refused = await engine.access.createApiKey({ workspace: " " }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(Invalid)
    expect(refused).toMatchObject({ kind: "invalid", errors: [{ field: "workspace" }] })
  })
})
