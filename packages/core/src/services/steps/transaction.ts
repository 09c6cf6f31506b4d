import { Cause, Effect, Either, Exit, FiberRef, Runtime, RuntimeFlags } from "effect"
import type { DomainError } from "../../errors.ts"
import type { Awaitable } from "../../ports/awaitable.ts"
import type { Repositories, Storage } from "../../ports/storage/index.ts"
import { replayableText, replayedValue } from "../../rules/replayable-value.ts"
import { currentKeyedRequest, type KeyedRequest } from "./keyed-requests.ts"
import { currentSpan, inChildSpan } from "./trace-spans.ts"

/**
 * The runtime the engine's fibers run on: Effect's default without its runtime metrics, which
 * count every fiber's start and end and time its life in a histogram that nothing reads (the
 * service's metrics are its own, `AppMetrics`); without them a GET in-process took 6 to 11 % less
 * time (docs/decisions.md, "Effect's runtime metrics off").
 */
const engineRuntime = Runtime.disableRuntimeFlag(Runtime.defaultRuntime, RuntimeFlags.RuntimeMetrics)
const runPromiseExit = Runtime.runPromiseExit(engineRuntime)
const runFork = Runtime.runFork(engineRuntime)

/**
 * Runs an effect to a promise that rejects with the domain error itself (not a FiberFailure),
 * so Promise callers can `catch` and read `_tag`, `kind` and `errors`.
 */
export const runToPromise = async <A>(effect: Effect.Effect<A, DomainError>): Promise<A> => {
  const exit = await runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}

/** A repository whose methods return effects instead of what they answer; a rejection or a throw is a defect. */
export type LiftedRepository<R> = {
  readonly [K in keyof R]: R[K] extends (...args: infer P) => Awaitable<infer T>
    ? (...args: P) => Effect.Effect<Awaited<T>>
    : R[K]
}

/**
 * Repositories as services use them: `yield* tx.payments.find(companyId, id)`.
 */
export type Lifted<Rs> = { readonly [K in keyof Rs]: LiftedRepository<Rs[K]> }

/** The repository methods that only read, by their names: the ones a read scope may call. */
type ReadMethodName = `find${string}` | `list${string}` | `get${string}` | `count${string}` | "offsetOf" | "isUsed"

/** A repository with only its reading methods. */
export type ReadRepository<R> = Pick<R, Extract<keyof R, ReadMethodName>>

/**
 * The repositories of a read scope (see {@link inRead}): their reading methods only, so a use
 * case that reads cannot write by mistake. A step that only reads takes these; a transaction's
 * repositories are given to it just as well.
 */
export type ReadRepositories = { readonly [K in keyof Repositories]: ReadRepository<Repositories[K]> }

/**
 * Wraps each method as it is read, so any repository shape works (object of functions or class
 * instance) and nothing is walked up front. The proxy stands on an empty object, not on the
 * repository: a frozen repository's properties would bind a proxy to return them unchanged.
 * The cast is the one place the mapped type is asserted: every function read through the proxy
 * is the repository's own method, called on it, with its promise turned into an effect, which is
 * what {@link LiftedRepository} states.
 */
const liftRepository = <R extends object>(repository: R): LiftedRepository<R> => {
  // Each method's wrapper is made on its first use and kept with the repository's.
  const wrappers = new Map<PropertyKey, { readonly member: unknown; readonly wrapper: unknown }>()
  return new Proxy(
    {},
    {
      get: (_, name) => {
        const member: unknown = Reflect.get(repository, name)
        if (typeof member !== "function") return member
        const known = wrappers.get(name)
        if (known !== undefined && known.member === member) return known.wrapper
        const wrapper = (...args: ReadonlyArray<unknown>) =>
          Effect.suspend(() => {
            const answer: unknown = Reflect.apply(member, repository, args)
            return isThenable(answer) ? Effect.promise(() => answer) : Effect.succeed(answer)
          })
        wrappers.set(name, { member, wrapper })
        return wrapper
      },
    },
  ) as LiftedRepository<R>
}

/** The lifted repositories of each storage's repositories: a storage that hands the same ones to every transaction in turn (SQLite's) has them lifted once. */
const liftedRepositories = new WeakMap<Repositories, Lifted<Repositories>>()

/**
 * The repositories of one transaction, lifted into Effect. Each repository is read from the
 * storage (adapters build theirs lazily) and wrapped the first time a service uses it, then
 * kept for the rest of the transaction; the ones a transaction never touches are never built.
 */
const liftRepositories = (tx: Repositories): Lifted<Repositories> => {
  const known = liftedRepositories.get(tx)
  if (known !== undefined) return known
  const repositories = new Map<PropertyKey, unknown>()
  // On an empty target for the same reason as liftRepository: adapters fix each repository on
  // the transaction object once built, as a read-only property.
  const lifted = new Proxy(
    {},
    {
      get: (_, name) => {
        let repository = repositories.get(name)
        if (repository === undefined) {
          const raw: unknown = Reflect.get(tx, name)
          if (typeof raw !== "object" || raw === null) return raw
          repository = liftRepository(raw)
          repositories.set(name, repository)
        }
        return repository
      },
    },
  ) as Lifted<Repositories>
  liftedRepositories.set(tx, lifted)
  return lifted
}

/** Thrown inside a storage transaction to roll it back after the work failed; never escapes. */
class RolledBack extends Error {
  constructor() {
    super("the transaction's work failed; rolled back")
  }
}

/** A storage's way of running work on repositories: `transaction`, or `read`. */
type Scope = <T>(work: (tx: Repositories) => Awaitable<T>) => Promise<T>

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function"

/**
 * Runs `work` in a storage scope ({@link runScope}), in a span `spanName` when the caller is
 * traced; the work's fiber then has that span as its own, so a job it queues carries its trace.
 */
const runIn = <A, E>(
  scope: Scope,
  spanName: string,
  work: (tx: Lifted<Repositories>) => Effect.Effect<A, E>,
): Effect.Effect<A, E> =>
  inChildSpan(spanName, {}, (active) =>
    runScope(scope, active === undefined ? work : (tx) => Effect.locally(work(tx), currentSpan, active)),
  )

/**
 * Runs `work` in a storage scope, in a fiber of its own inside the storage's callback. Running it
 * in the calling fiber instead (resumed with the transaction, then suspended again to end it)
 * measured 15 % more instructions a read: two suspensions cost more than the fiber they replace
 * (docs/decisions.md, "One fiber a use case, measured and left").
 */
const runScope = <A, E>(scope: Scope, work: (tx: Lifted<Repositories>) => Effect.Effect<A, E>): Effect.Effect<A, E> =>
  Effect.flatten(
    Effect.promise((): Promise<Exit.Exit<A, E>> => {
      // The failure travels beside the rejection, not in it, so it keeps its type and its cause.
      let failed: Exit.Exit<A, E> | undefined
      let hooks: Array<() => void> = []
      const settle = (exit: Exit.Exit<A, E>) => {
        if (Exit.isSuccess(exit)) return exit
        failed = exit
        // Made only on failure: an Error's stack trace costs more than the rest of a transaction's wrapping.
        throw new RolledBack()
      }
      return scope((tx) => {
        // A storage that runs the work again starts its hooks afresh.
        hooks = []
        const lifted = liftRepositories(tx)
        committedHooks.set(lifted, hooks)
        const fiber = runFork(work(lifted))
        const exit = fiber.unsafePoll()
        if (exit !== null) return settle(exit)
        return new Promise<Exit.Exit<A, E>>((resolve) => fiber.addObserver(resolve)).then(settle)
      }).then(
        (exit) => {
          for (const hook of hooks) hook()
          return exit
        },
        (error: unknown) => {
          if (error instanceof RolledBack && failed !== undefined) return failed
          throw error
        },
      )
    }),
  )

/** What each open scope runs once it has committed, by its lifted repositories. */
const committedHooks = new WeakMap<object, Array<() => void>>()

/**
 * Runs `hook` once the transaction (or read scope) of `tx` has committed, never when it rolls
 * back: for what must not tell of a write that did not happen, such as a log line.
 */
export const afterCommit = (tx: object, hook: () => void): Effect.Effect<void> =>
  Effect.sync(() => {
    const hooks = committedHooks.get(tx)
    if (hooks === undefined) throw new Error("afterCommit: not the repositories of an open transaction")
    hooks.push(hook)
  })

const runTransaction = <A, E>(
  storage: Storage,
  work: (tx: Lifted<Repositories>) => Effect.Effect<A, E>,
): Effect.Effect<A, E> => runIn((inner) => storage.transaction(inner), "payments.storage.transaction", work)

/**
 * Runs `work` that only reads in the storage's read scope (`Storage.read`: no write lock, no
 * `BEGIN` where a read needs none), or in a transaction on a storage without one. A failure comes
 * out unchanged, as from {@link inTransaction}. Never journaled: a keyed request's replay need not
 * replay a read, and a use case that reads only answers the same whether it runs once or twice.
 */
export const inRead = <A, E>(
  storage: Storage,
  work: (tx: Lifted<ReadRepositories>) => Effect.Effect<A, E>,
): Effect.Effect<A, E> =>
  runIn(storage.read?.bind(storage) ?? ((inner) => storage.transaction(inner)), "payments.storage.read", work)

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
