import { Cause, Effect, Either, Exit, FiberRef } from "effect"
import type { DomainError } from "../../errors.ts"
import type { Repositories, Storage } from "../../ports/storage/index.ts"
import { replayableText, replayedValue } from "../../rules/replayable-value.ts"
import { currentKeyedRequest, type KeyedRequest } from "./keyed-requests.ts"

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

const runTransaction = <A, E>(
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

/** The results of a keyed request's committed transactions, in order, each {@link replayableText} sealed. */
export const journalSteps = (journal: string | null): ReadonlyArray<string> =>
  journal === null ? [] : (JSON.parse(journal) as ReadonlyArray<string>)

/**
 * A transaction of a keyed request: its result joins the key's journal in the same transaction,
 * so the work and the record of it commit together. A retry after a crash replays the results
 * already journaled, in order, without running their work again, and runs the rest.
 */
const journaled = <A, E>(
  storage: Storage,
  keyed: KeyedRequest,
  work: (tx: Lifted<Repositories>) => Effect.Effect<A, E>,
): Effect.Effect<A, E> =>
  runTransaction(storage, (tx) =>
    Effect.gen(function* () {
      const record = yield* tx.idempotency.find(keyed.workspaceId, keyed.key)
      if (record === undefined || record.owner !== keyed.owner) {
        return yield* Effect.die(new Error(`idempotency key ${keyed.key} is no longer held by this request`))
      }
      const steps = journalSteps(record.journal)
      if (keyed.step < steps.length) {
        const text = yield* keyed.open(steps[keyed.step] as string)
        if (text === undefined) {
          return yield* Effect.die(
            new Error(`idempotency key ${keyed.key}: journal sealed under another server secret`),
          )
        }
        return replayedValue(text) as A
      }
      const result = yield* work(tx)
      const text = replayableText(result)
      if (Either.isLeft(text)) {
        const { path, reason } = text.left
        return yield* Effect.die(
          new Error(`a keyed transaction returned what cannot be replayed: ${path} is ${reason}`),
        )
      }
      const sealedText = yield* keyed.seal(text.right)
      const kept = yield* tx.idempotency.replaceIfOwner(
        { ...record, journal: JSON.stringify([...steps, sealedText]) },
        keyed.owner,
      )
      if (!kept) return yield* Effect.die(new Error(`idempotency key ${keyed.key} was taken over while it ran`))
      return result
    }),
  ).pipe(
    Effect.tap(() => {
      keyed.step += 1
    }),
    keyed.oneAtATime.withPermits(1),
  )

/**
 * Runs `work` in one storage transaction, handing it the transaction's repositories lifted into
 * Effect. A failure of the work (a domain error, or a defect) rolls the transaction back and
 * comes out unchanged as the effect's failure; anything the storage itself throws is a defect.
 * Within a request that holds an `Idempotency-Key` (see `KeyedRequest`), the work's result is
 * journaled with it, and replayed instead of running the work again when the request is retried
 * after a crash: the result must survive {@link replayableText}, and what the use case answers
 * must derive from its transactions' results, not from ids or times made outside them.
 */
export const inTransaction = <A, E>(
  storage: Storage,
  work: (tx: Lifted<Repositories>) => Effect.Effect<A, E>,
): Effect.Effect<A, E> =>
  Effect.flatMap(FiberRef.get(currentKeyedRequest), (keyed) =>
    keyed === undefined ? runTransaction(storage, work) : journaled(storage, keyed, work),
  )
