import type { Effect } from "effect"
import type { DomainError } from "./errors.ts"
import { makeAccess } from "./services/access.ts"
import { makeCompanies } from "./services/companies.ts"
import { makeEntities } from "./services/entities.ts"
import { makeIdempotency } from "./services/idempotency.ts"
import type { EnginePorts } from "./services/ports.ts"
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

const makeEffectApi = (ports: EnginePorts) => ({
  access: makeAccess(ports),
  companies: makeCompanies(ports),
  entities: makeEntities(ports),
  recipients: makeRecipients(ports),
  idempotency: makeIdempotency(ports),
})

/** The engine's use cases as effects, for teams that build with Effect. */
export type EngineEffects = ReturnType<typeof makeEffectApi>

/** The engine: its use cases as promises, the same ones as effects under `effect`. */
export interface Engine {
  readonly effect: EngineEffects
  readonly access: Promised<EngineEffects["access"]>
  readonly companies: Promised<EngineEffects["companies"]>
  readonly entities: Promised<EngineEffects["entities"]>
  readonly recipients: Promised<EngineEffects["recipients"]>
  readonly idempotency: Promised<EngineEffects["idempotency"]>
  /** Closes the storage. */
  close(): Promise<void>
}

/**
 * Builds an engine from its ports. Every use case takes the {@link Actor} it acts for first;
 * failures reject with a {@link DomainError} (`NotFound`, `Invalid`, `Conflict`, `Forbidden`,
 * `Unauthorized`) that carries `status` and `errors`.
 *
 * @example
 * const engine = createEngine({ storage, clock: systemClock, ids: randomIds(), hasher: scryptHasher() })
 * const actor = { workspaceId: "ws_1", scope: "write" } as const
 * const company = await engine.companies.create(actor, { name: "Acme", country: "US", default_currency: "USD" })
 */
export const createEngine = (ports: EnginePorts): Engine => {
  const effect = makeEffectApi(ports)
  return {
    effect,
    access: promised(effect.access),
    companies: promised(effect.companies),
    entities: promised(effect.entities),
    recipients: promised(effect.recipients),
    idempotency: promised(effect.idempotency),
    close: () => ports.storage.close(),
  }
}
