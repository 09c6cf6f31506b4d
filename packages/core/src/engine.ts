import type { Effect } from "effect"
import type { DomainError } from "./errors.ts"
import type { BankLinkProvider } from "./ports/bank-link-provider.ts"
import type { PaymentProvider } from "./ports/payment-provider.ts"
import { defaultFeeSchedule, type FeeSchedule } from "./rules/fee-schedule.ts"
import { makeAccess } from "./services/access.ts"
import { makeBankAccounts } from "./services/bank-accounts.ts"
import { makeCompanies } from "./services/companies.ts"
import { makeEntities } from "./services/entities.ts"
import { makeFeatures } from "./services/features.ts"
import { makeFundingAccounts } from "./services/funding-accounts.ts"
import { makeIdempotency } from "./services/idempotency.ts"
import { makeJobs } from "./services/jobs.ts"
import type { MoneyPorts } from "./services/money-ports.ts"
import { makePaymentMethods } from "./services/payment-methods.ts"
import { makePayments } from "./services/payments.ts"
import type { EnginePorts } from "./services/ports.ts"
import { makeQuotes } from "./services/quotes.ts"
import { makeRecipients } from "./services/recipients.ts"
import { runToPromise } from "./services/transaction.ts"

// biome-ignore lint/suspicious/noExplicitAny: the constraint must accept every use case's parameters
type UseCases = Record<string, (...args: any[]) => Effect.Effect<unknown, DomainError>>

/** The same use cases, returning promises that reject with the domain error. */
export type Promised<S extends UseCases> = {
  readonly [K in keyof S]: (...args: Parameters<S[K]>) => Promise<Effect.Effect.Success<ReturnType<S[K]>>>
}

const promised = <S extends UseCases>(useCases: S): Promised<S> =>
  Object.fromEntries(
    Object.entries(useCases).map(([name, useCase]) => [name, (...args: unknown[]) => runToPromise(useCase(...args))]),
  ) as unknown as Promised<S>

const makeEffectApi = (ports: MoneyPorts) => {
  const payments = makePayments(ports)
  return {
    access: makeAccess(ports),
    companies: makeCompanies(ports),
    entities: makeEntities(ports),
    features: makeFeatures(ports),
    recipients: makeRecipients(ports),
    idempotency: makeIdempotency(ports),
    paymentMethods: makePaymentMethods(ports),
    bankAccounts: makeBankAccounts(ports),
    fundingAccounts: makeFundingAccounts(ports),
    quotes: makeQuotes(ports),
    payments,
    jobs: makeJobs(ports, payments),
  }
}

/** The engine's use cases as effects, for teams that build with Effect. */
export type EngineEffects = ReturnType<typeof makeEffectApi>

/** The engine: its use cases as promises, the same ones as effects under `effect`. */
export interface Engine {
  readonly effect: EngineEffects
  readonly access: Promised<EngineEffects["access"]>
  readonly companies: Promised<EngineEffects["companies"]>
  readonly entities: Promised<EngineEffects["entities"]>
  /** Entity features (the multi-currency account): enable, list, and the sandbox's status changes. */
  readonly features: Promised<EngineEffects["features"]>
  readonly recipients: Promised<EngineEffects["recipients"]>
  readonly idempotency: Promised<EngineEffects["idempotency"]>
  readonly paymentMethods: Promised<EngineEffects["paymentMethods"]>
  readonly bankAccounts: Promised<EngineEffects["bankAccounts"]>
  readonly fundingAccounts: Promised<EngineEffects["fundingAccounts"]>
  readonly quotes: Promised<EngineEffects["quotes"]>
  readonly payments: Promised<EngineEffects["payments"]>
  /** Background work: `runDue()` runs due jobs (a job runner calls it; so does the sandbox clock). */
  readonly jobs: Promised<EngineEffects["jobs"]>
  /** Closes the storage. */
  close(): Promise<void>
}

/** What an engine is built from: its ports, and the settings of money movement. */
export interface EngineOptions extends EnginePorts {
  readonly paymentProvider: PaymentProvider
  readonly bankLinker: BankLinkProvider
  /** Fees and FX margin; {@link defaultFeeSchedule} when absent. */
  readonly feeSchedule?: FeeSchedule
  /** Called after a transaction that queued background jobs commits, to wake a job runner. */
  readonly onJobsQueued?: () => void
}

/**
 * Builds an engine from its ports. Every use case takes the {@link Actor} it acts for first;
 * failures reject with a {@link DomainError} (`NotFound`, `Invalid`, `Conflict`, `Forbidden`,
 * `Unauthenticated`, `ProviderFailure`) that carries a `kind` and `errors`, never an HTTP status.
 *
 * @example
 * const engine = createEngine({
 *   storage, clock: systemClock, ids: randomIds(), hasher: scryptHasher(),
 *   paymentProvider: createSandboxPaymentProvider(), bankLinker: createSandboxBankLinker(),
 * })
 * const actor = { workspaceId: "ws_1", scope: "write" } as const
 * const company = await engine.companies.create(actor, { name: "Acme", country: "US", default_currency: "USD" })
 */
export const createEngine = (options: EngineOptions): Engine => {
  const ports: MoneyPorts = { ...options, feeSchedule: options.feeSchedule ?? defaultFeeSchedule }
  const effect = makeEffectApi(ports)
  return {
    effect,
    access: promised(effect.access),
    companies: promised(effect.companies),
    entities: promised(effect.entities),
    features: promised(effect.features),
    recipients: promised(effect.recipients),
    idempotency: promised(effect.idempotency),
    paymentMethods: promised(effect.paymentMethods),
    bankAccounts: promised(effect.bankAccounts),
    fundingAccounts: promised(effect.fundingAccounts),
    quotes: promised(effect.quotes),
    payments: promised(effect.payments),
    jobs: promised(effect.jobs),
    close: () => ports.storage.close(),
  }
}
