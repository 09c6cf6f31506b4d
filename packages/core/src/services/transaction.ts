import { Cause, Effect, Exit } from "effect"
import type { DomainError } from "../errors.ts"
import type { Repositories, Storage } from "../ports/storage/index.ts"

/**
 * Runs an effect to a promise that rejects with the domain error itself (not a FiberFailure),
 * so Promise callers can `catch` and read `_tag`, `kind` and `errors`.
 */
export const runToPromise = async <A>(effect: Effect.Effect<A, DomainError>): Promise<A> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}

/** A repository whose methods return effects instead of promises; a rejection is a defect. */
export type LiftedRepository<R> = {
  readonly [K in keyof R]: R[K] extends (...args: infer P) => Promise<infer T> ? (...args: P) => Effect.Effect<T> : R[K]
}

/**
 * Repositories as services use them: `yield* tx.payments.find(companyId, id)`.
 *
 * @example
 * inTransaction(storage, (tx) => tx.companies.find(workspaceId, id))
 */
export type Lifted<Rs> = { readonly [K in keyof Rs]: LiftedRepository<Rs[K]> }

/**
 * Wraps each method as it is read, so any repository shape works (object of functions or class
 * instance) and nothing is walked up front. The proxy stands on an empty object, not on the
 * repository: a frozen repository's properties would bind a proxy to return them unchanged.
 * The cast is the one place the mapped type is asserted: every function read through the proxy
 * is the repository's own method, called on it, with its promise turned into an effect, which is
 * what {@link LiftedRepository} states.
 */
const liftRepository = <R extends object>(repository: R): LiftedRepository<R> =>
  new Proxy(
    {},
    {
      get: (_, name) => {
        const member: unknown = Reflect.get(repository, name)
        if (typeof member !== "function") return member
        return (...args: ReadonlyArray<unknown>) =>
          Effect.promise((): PromiseLike<unknown> => Reflect.apply(member, repository, args))
      },
    },
  ) as LiftedRepository<R>

/**
 * The repositories of one transaction, lifted into Effect. Each repository is read from the
 * storage (adapters build theirs lazily) and wrapped the first time a service uses it, then
 * kept for the rest of the transaction; the ones a transaction never touches are never built.
 */
const liftRepositories = (tx: Repositories): Lifted<Repositories> => {
  const lifted = new Map<PropertyKey, unknown>()
  // On an empty target for the same reason as liftRepository: adapters fix each repository on
  // the transaction object once built, as a read-only property.
  return new Proxy(
    {},
    {
      get: (_, name) => {
        let repository = lifted.get(name)
        if (repository === undefined) {
          const raw: unknown = Reflect.get(tx, name)
          if (typeof raw !== "object" || raw === null) return raw
          repository = liftRepository(raw)
          lifted.set(name, repository)
        }
        return repository
      },
    },
  ) as Lifted<Repositories>
}

/** Thrown inside a storage transaction to roll it back after the work failed; never escapes. */
class RolledBack extends Error {
  constructor() {
    super("the transaction's work failed; rolled back")
  }
}

/**
 * Runs `work` in one storage transaction, handing it the transaction's repositories lifted into
 * Effect. A failure of the work (a domain error, or a defect) rolls the transaction back and
 * comes out unchanged as the effect's failure; anything the storage itself throws is a defect.
 *
 * @example
 * inTransaction(ports.storage, (tx) =>
 *   Effect.gen(function* () {
 *     const row = yield* tx.payments.find(companyId, id)
 *     return row ?? (yield* Effect.fail(paymentNotFound()))
 *   }),
 * )
 */
export const inTransaction = <A, E>(
  storage: Storage,
  work: (tx: Lifted<Repositories>) => Effect.Effect<A, E>,
): Effect.Effect<A, E> =>
  Effect.flatten(
    Effect.promise(async (): Promise<Exit.Exit<A, E>> => {
      // The failure travels beside the rejection, not in it, so it keeps its type and its cause.
      let failed: Exit.Exit<A, E> | undefined
      try {
        return await storage.transaction(async (tx) => {
          const exit = await Effect.runPromiseExit(work(liftRepositories(tx)))
          if (Exit.isSuccess(exit)) return exit
          failed = exit
          // Made only on failure: an Error's stack trace costs more than the rest of a transaction's wrapping.
          throw new RolledBack()
        })
      } catch (error) {
        if (error instanceof RolledBack && failed !== undefined) return failed
        throw error
      }
    }),
  )
