import { describe, expect, it } from "vitest"
import { createEngine } from "./engine.ts"
import { brandId, WorkspaceId } from "./model/ids.ts"
import type { BankLinkProvider } from "./ports/bank-link-provider.ts"
import type { PaymentProvider } from "./ports/payment-provider.ts"
import type { Repositories, Storage } from "./ports/storage/index.ts"
import type { Actor } from "./services/steps/actor.ts"

/** The public use cases that only read: each must run in the storage's read scope, never in a transaction. */
const readingUseCases = [
  "access.apiKeyExists",
  "access.authenticate",
  "access.hasApiKeys",
  "access.listApiKeys",
  "access.tokenActor",
  "bankAccounts.get",
  "bankAccounts.list",
  "companies.get",
  "companies.list",
  "entities.get",
  "entities.list",
  "features.list",
  "fundingAccounts.list",
  "onboardingAttachments.get",
  "onboardingAttachments.list",
  "onboardings.allPersons",
  "onboardings.get",
  "onboardings.getPerson",
  "onboardings.listPersons",
  "payments.get",
  "payments.list",
  "paymentBatches.get",
  "paymentBatches.list",
  "recipients.get",
  "recipients.list",
  "testClocks.now",
  "trustedDomains.checkReturnUrl",
  "trustedDomains.get",
  "webhookDeliveries.list",
  "webhookEndpoints.get",
  "webhookEndpoints.list",
  "webhookRecoveries.get",
]

/** Use cases that write, reached with ids alone: each must run in a transaction. */
const writingUseCases = [
  "companies.delete",
  "entities.delete",
  "onboardings.deletePerson",
  "payments.cancel",
  "recipients.delete",
  "webhookEndpoints.delete",
  "webhookEndpoints.toggle",
]

const testClockOffsetMs = 5000
const now = new Date("2026-11-23T00:00:00.000Z")

/**
 * A storage that records which scope each call opens. Its repositories find nothing (a test
 * clock 5 s ahead); a use case may fail after its scope opened, which is all this test reads.
 */
const recordingStorage = () => {
  const scopes: Array<"read" | "transaction"> = []
  const repository = new Proxy(
    {},
    { get: (_, name) => async () => (name === "offsetOf" ? testClockOffsetMs : undefined) },
  )
  const repositories = new Proxy({}, { get: () => repository }) as Repositories
  const storage: Storage = {
    capabilities: { multiProcess: false, concurrentTransactions: true },
    transaction: async (work) => {
      scopes.push("transaction")
      return work(repositories)
    },
    read: async (work) => {
      scopes.push("read")
      return work(repositories)
    },
    createJobRunner: () => {
      throw new Error("no jobs here")
    },
    close: async () => {},
  }
  return { storage, scopes }
}

const engineOn = (storage: Storage) =>
  createEngine({
    storage,
    clock: { now: () => now },
    ids: { next: (prefix) => brandId(prefix, `${prefix}_1`) },
    hasher: { hash: async () => "hash", verify: async () => false },
    serverSecret: { read: async () => "test-server-secret-0123456789abcdefgh" },
    paymentProvider: {} as PaymentProvider,
    bankLinker: {} as BankLinkProvider,
    testClocks: true,
  })

const actor: Actor = { workspaceId: WorkspaceId.make("ws_1"), scope: "write" }

/** Arguments that carry each use case past its input checks to its storage: an actor (or a key), then ids. */
const argumentsOf = (name: string): ReadonlyArray<unknown> => {
  switch (name) {
    case "access.apiKeyExists":
      return ["pk_1"]
    case "access.authenticate":
      return [{ api_key: "pk_1", api_secret: "secret" }]
    case "access.hasApiKeys":
      return []
    case "access.listApiKeys":
      return []
    case "access.tokenActor":
      return [{ workspaceId: actor.workspaceId, keyId: "key_1", scope: "write" }]
    case "fundingAccounts.list":
      return [actor, "ent_1"]
    case "trustedDomains.checkReturnUrl":
      return [actor, "https://pay.example.com/done"]
    case "testClocks.now":
    case "trustedDomains.get":
      return [actor]
    case "webhookEndpoints.get":
    case "webhookEndpoints.delete":
    case "webhookEndpoints.toggle":
      return [actor, "cmp_1", "whe_1"]
    case "webhookDeliveries.list":
      return [actor, "cmp_1", "whe_1"]
    case "webhookRecoveries.get":
      return [actor, "cmp_1", "whe_1", "wer_1"]
    case "companies.get":
    case "companies.delete":
      return [actor, "cmp_1"]
    case "companies.list":
      return [actor]
    case "payments.list":
    case "paymentBatches.list":
    case "webhookEndpoints.list":
      return [actor, "cmp_1", {}]
    default:
      return [actor, "cmp_1", "ent_1", "id_1"]
  }
}

/** The scopes a use case opened, called through the engine's Promise API. */
const scopesOf = async (name: string) => {
  const { storage, scopes } = recordingStorage()
  const engine = engineOn(storage)
  const [service, useCase] = name.split(".") as [string, string]
  const call = (
    engine as unknown as Record<string, Record<string, (...args: ReadonlyArray<unknown>) => Promise<unknown>>>
  )[service]?.[useCase]
  if (call === undefined) throw new Error(`no use case ${name}`)
  await call(...argumentsOf(name)).catch(() => undefined)
  return scopes
}

describe("the read scope", () => {
  it.each(readingUseCases)("runs %s, which only reads, in the storage's read scope", async (name) => {
    const scopes = await scopesOf(name)
    expect(scopes.length).toBeGreaterThan(0)
    expect(scopes.every((scope) => scope === "read")).toBe(true)
  })

  it.each(writingUseCases)("runs %s, which writes, in a transaction", async (name) => {
    expect(await scopesOf(name)).toEqual(["transaction"])
  })

  it("reads a sandbox workspace's test clock in the read scope", async () => {
    const { storage, scopes } = recordingStorage()
    expect(await engineOn(storage).testClocks.now(actor)).toEqual(new Date(now.getTime() + testClockOffsetMs))
    expect(scopes).toEqual(["read"])
  })

  it("runs reads in transactions on a storage without a read scope", async () => {
    const { storage, scopes } = recordingStorage()
    const { read: _, ...withoutRead } = storage
    await engineOn(withoutRead)
      .companies.get(actor, brandId("cmp", "cmp_1"))
      .catch(() => undefined)
    expect(scopes).toEqual(["transaction"])
  })
})
