import { describe, expect, expectTypeOf, it } from "vitest"
import { createEngine } from "./engine.ts"
import { type EngineEffects, effectsOf, type PromisedServices } from "./engine-effects.ts"
import type { EngineServices } from "./engine-services.ts"
import { Invalid } from "./errors.ts"
import { brandId } from "./model/ids.ts"
import type { BankLinkProvider } from "./ports/bank-link-provider.ts"
import type { PaymentProvider } from "./ports/payment-provider.ts"
import type { Storage } from "./ports/storage/index.ts"
import type { Actor } from "./services/steps/actor.ts"

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

/** The public engine's use cases, by service: nothing a background job runs is among them. */
const publicUseCases = {
  access:
    "apiKeyExists authenticate createApiKey ensureWorkspace hasApiKeys listApiKeys revokeApiKey rotateApiKey settingOrInit tokenActor",
  companies: "create delete get list update",
  entities: "create delete get list update",
  features: "enable list setStatus submit",
  onboardings: "allPersons createPerson deletePerson get getPerson listPersons update updatePerson",
  onboardingAttachments: "content create delete get list",
  recipients: "create delete get list",
  idempotency: "abandon begin complete",
  paymentMethods: "bankCountries list requirements",
  bankAccounts: "createForRecipient get list",
  fundingAccounts: "institutions link linkWithMandate list remove",
  hostedPageTokens: "checkCsrfToken createForEntity createForFunding csrfToken verify",
  quotes: "create",
  payments: "cancel create get list",
  paymentBatches: "create get list process",
  webhookDeliveries: "list retry test",
  testClocks: "advance now",
  trustedDomains: "checkReturnUrl get upsert",
  workspaceBranding: "get update",
  webhookEndpoints: "create delete get list rotateSecret toggle update",
  webhookEvents: "list",
  webhookRecoveries: "get recover",
  events: "get list",
}

/** The first parameter of a use case; `none` for one that takes none. */
type FirstParameter<F> = F extends (...args: infer P) => unknown ? (P extends [] ? "none" : P[0]) : never

/** The use cases, as `service.useCase`, whose first parameter is not an {@link Actor}. */
type ActorlessUseCases = {
  [S in keyof EngineEffects]: {
    [U in keyof EngineEffects[S]]: FirstParameter<EngineEffects[S][U]> extends Actor
      ? never
      : `${S & string}.${U & string}`
  }[keyof EngineEffects[S]]
}[keyof EngineEffects]

describe("createEngine", () => {
  it("holds only use cases: the handlers of background jobs are not on it", () => {
    const members = Object.fromEntries(
      Object.entries(effectsOf(engine)).map(([service, useCases]) => [service, Object.keys(useCases).sort().join(" ")]),
    )
    expect(members).toEqual(publicUseCases)
  })

  it("has every use case take the actor it acts for, but those that act for no workspace", () => {
    // Those that make an actor from a key or check a hosted-page token and its CSRF token, the
    // operator's key and settings commands, and the catalogues every caller reads alike.
    expectTypeOf<ActorlessUseCases>().toEqualTypeOf<
      | "access.apiKeyExists"
      | "access.authenticate"
      | "access.createApiKey"
      | "access.ensureWorkspace"
      | "access.hasApiKeys"
      | "access.listApiKeys"
      | "access.revokeApiKey"
      | "access.rotateApiKey"
      | "access.settingOrInit"
      | "fundingAccounts.institutions"
      | "hostedPageTokens.checkCsrfToken"
      | "hostedPageTokens.csrfToken"
      | "hostedPageTokens.verify"
      | "webhookEvents.list"
    >()
  })

  it("offers every service of the registry as promises, use case for use case", () => {
    const effect = effectsOf(engine)
    const { close, jobs, ...services } = engine
    expect(typeof close).toBe("function")
    expect(Object.keys(jobs).sort()).toEqual(["runDue", "running", "start", "stop"])
    expect(Object.keys(services).sort()).toEqual(Object.keys(effect).sort())
    for (const [name, useCases] of Object.entries(services)) {
      expect(Object.keys(useCases).sort(), name).toEqual(Object.keys(effect[name as keyof typeof effect]).sort())
    }
  })

  it("is typed by the written-out services, which are the Effect API's use cases as promises", () => {
    // The main entry's Engine names EngineServices only, no effect type; this keeps the two equal.
    expectTypeOf<EngineServices>().toEqualTypeOf<PromisedServices<EngineEffects>>()
  })

  it("gives its Effect API to effectsOf, and effectsOf refuses any other object", () => {
    expect(effectsOf(engine).companies.get).toBeTypeOf("function")
    expect(() => effectsOf({ ...engine })).toThrow(new TypeError("effectsOf: this engine was not made by createEngine"))
  })

  it("rejects with the domain error itself", async () => {
    const refused = await engine.access.createApiKey({ workspace: " " }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(Invalid)
    expect(refused).toMatchObject({ kind: "invalid", errors: [{ field: "workspace" }] })
  })
})
