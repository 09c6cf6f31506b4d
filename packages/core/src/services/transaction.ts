import { Cause, Effect, Either, Exit } from "effect"
import { type DomainError, isDomainError } from "../errors.ts"
import type { Repositories, Storage } from "../ports/storage/index.ts"

/**
 * Runs an effect to a promise that rejects with the domain error itself (not a FiberFailure),
 * so Promise callers can `catch` and read `_tag`, `status` and `errors`.
 */
export const runToPromise = async <A>(effect: Effect.Effect<A, DomainError>): Promise<A> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}

/**
 * Runs `work` in one storage transaction. A domain error rolls the transaction back and comes
 * out as the effect's failure; anything else the storage throws is a defect.
 */
export const inTransaction = <A, E extends DomainError>(
  storage: Storage,
  work: (tx: Repositories) => Effect.Effect<A, E>,
): Effect.Effect<A, E> =>
  Effect.promise(() =>
    storage
      .transaction((tx) => runToPromise(work(tx)))
      .then(
        (value): Either.Either<A, E> => Either.right(value),
        (error: unknown): Either.Either<A, E> => {
          if (isDomainError(error)) return Either.left(error as E)
          throw error
        },
      ),
  ).pipe(Effect.flatten)

/** Lifts a repository call into an effect; a rejection is a defect, not a domain error. */
export const call = <A>(query: () => Promise<A>): Effect.Effect<A> => Effect.promise(query)
