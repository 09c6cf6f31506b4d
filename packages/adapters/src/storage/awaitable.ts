import type { Awaitable } from "@payments-engine/core"

/** Whether `answer` is a promise (or any thenable) rather than the value itself. */
export const isThenable = <T>(answer: Awaitable<T>): answer is PromiseLike<T> =>
  typeof answer === "object" && answer !== null && typeof (answer as { then?: unknown }).then === "function"

/**
 * `next` of what `answer` answers: at once when it is a value, once it settles when it is a
 * promise. A repository method over prepared statements answers at once on SQLite this way,
 * and through a promise on Postgres, from one piece of code.
 *
 * @example
 * declare const findRows: (id: string) => Awaitable<ReadonlyArray<{ id: string }>>
 * const first = andThen(findRows("qt_1"), (rows) => rows[0]) // a row at once on SQLite, a promise of it on Postgres
 */
export const andThen = <A, B>(answer: Awaitable<A>, next: (value: A) => B): Awaitable<B> =>
  isThenable(answer) ? Promise.resolve(answer).then(next) : next(answer)
