/**
 * What a port's method answers: a value at once, or a promise of it. A storage whose statements
 * answer at once (better-sqlite3) returns values, so that the engine's work on it runs without a
 * turn of the event loop per statement; one that waits on a server returns promises. Callers
 * `await` either alike.
 */
export type Awaitable<T> = T | PromiseLike<T>
