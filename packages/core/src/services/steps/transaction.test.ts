import { Cause, Deferred, Effect, Exit, Fiber, Metric } from "effect"
import { describe, expect, it } from "vitest"
import { NotFound } from "../../errors.ts"
import { CompanyId, WorkspaceId } from "../../model/ids.ts"
import type { Repositories, Storage } from "../../ports/storage/index.ts"
import { afterCommit, inTransaction, runToPromise } from "./transaction.ts"

/** A storage whose repositories are built when first read, as the Kysely adapter's are, and frozen. */
const fakeStorage = () => {
  const built: Array<string> = []
  const outcomes: Array<"commit" | "rollback"> = []
  class Settings {
    readonly values = new Map<string, string>()
    async get(name: string) {
      return this.values.get(name)
    }
    async putIfAbsent(name: string, value: string) {
      if (!this.values.has(name)) this.values.set(name, value)
      return this.values.get(name) ?? value
    }
    async remove(name: string) {
      return this.values.delete(name)
    }
  }
  const settings = Object.freeze(new Settings())
  const companies = Object.freeze({
    find: async () => {
      throw new Error("connection lost")
    },
  })
  const repositories = {}
  for (const [name, repository] of Object.entries({ settings, companies })) {
    Object.defineProperty(repositories, name, {
      configurable: true,
      get() {
        built.push(name)
        // Adapters fix a built repository in place, read-only.
        Object.defineProperty(this, name, { value: repository })
        return repository
      },
    })
  }
  const storage: Storage = {
    capabilities: { multiProcess: false, concurrentTransactions: false },
    transaction: async <T>(work: (tx: Repositories) => Promise<T>) => {
      try {
        const value = await work(repositories as Repositories)
        outcomes.push("commit")
        return value
      } catch (error) {
        outcomes.push("rollback")
        throw error
      }
    },
    createJobRunner: () => {
      throw new Error("no jobs here")
    },
    close: async () => {},
  }
  return { storage, built, outcomes, settings }
}

describe("inTransaction", () => {
  it("hands the work its repositories as effects, building only those it reads", async () => {
    const { storage, built, outcomes } = fakeStorage()
    const value = await Effect.runPromise(
      inTransaction(storage, (tx) =>
        Effect.gen(function* () {
          const first = yield* tx.settings.putIfAbsent("secret", "a")
          const second = yield* tx.settings.putIfAbsent("secret", "b")
          return [first, second, yield* tx.settings.get("secret")]
        }),
      ),
    )
    expect(value).toEqual(["a", "a", "a"])
    expect(built).toEqual(["settings"])
    expect(outcomes).toEqual(["commit"])
  })

  it("runs what waits for the commit once the storage has committed, and never after a rollback", async () => {
    const { storage, outcomes } = fakeStorage()
    const told = (what: string) => () => void (outcomes as Array<string>).push(what)
    await Effect.runPromise(
      inTransaction(storage, (tx) =>
        Effect.gen(function* () {
          yield* afterCommit(tx, told("first hook"))
          yield* tx.settings.putIfAbsent("secret", "a")
          yield* afterCommit(tx, told("second hook"))
        }),
      ),
    )
    expect(outcomes).toEqual(["commit", "first hook", "second hook"])
    const rolledBack = await Effect.runPromiseExit(
      inTransaction(storage, (tx) =>
        afterCommit(tx, told("hook of a rollback")).pipe(
          Effect.zipRight(Effect.fail(new NotFound({ field: "id", message: "gone" }))),
        ),
      ),
    )
    expect(Exit.isFailure(rolledBack)).toBe(true)
    expect(outcomes).toEqual(["commit", "first hook", "second hook", "rollback"])
  })

  it("rolls back on a domain error and fails with that same error", async () => {
    const { storage, outcomes, settings } = fakeStorage()
    const gone = new NotFound({ field: "id", message: "gone" })
    const exit = await Effect.runPromiseExit(
      inTransaction(storage, (tx) => tx.settings.putIfAbsent("secret", "a").pipe(Effect.zipRight(Effect.fail(gone)))),
    )
    expect(exit).toEqual(Exit.fail(gone))
    expect(outcomes).toEqual(["rollback"])
    // The fake does not undo writes; what matters is that the storage was told to roll back.
    expect(settings.values.get("secret")).toBe("a")
  })

  it("turns a repository's rejection into a defect, after rolling back", async () => {
    const { storage, outcomes } = fakeStorage()
    const exit = await Effect.runPromiseExit(
      inTransaction(storage, (tx) => tx.companies.find(WorkspaceId.make("ws_1"), CompanyId.make("cmp_1"))),
    )
    expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
    expect(Exit.isFailure(exit) && Cause.squash(exit.cause)).toEqual(new Error("connection lost"))
    expect(outcomes).toEqual(["rollback"])
  })

  it("keeps a failure of the storage itself a defect", async () => {
    const { storage } = fakeStorage()
    const broken: Storage = { ...storage, transaction: async () => Promise.reject(new Error("cannot begin")) }
    const exit = await Effect.runPromiseExit(inTransaction(broken, (tx) => tx.settings.get("secret")))
    expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
  })

  it("ends a begun transaction when the fiber that runs it is interrupted, its work run to the end", async () => {
    const { storage, outcomes, settings } = fakeStorage()
    await Effect.runPromise(
      Effect.gen(function* () {
        const begun = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const fiber = yield* Effect.fork(
          inTransaction(storage, (tx) =>
            Effect.gen(function* () {
              yield* Deferred.succeed(begun, undefined)
              yield* Deferred.await(release)
              return yield* tx.settings.putIfAbsent("secret", "a")
            }),
          ),
        )
        yield* Deferred.await(begun)
        const interrupted = yield* Effect.fork(Fiber.interrupt(fiber))
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(interrupted)
      }),
    )
    expect(outcomes).toEqual(["commit"])
    expect(settings.values.get("secret")).toBe("a")
  })
})

describe("runToPromise", () => {
  it("runs the use case and its transaction's fiber without Effect's runtime metrics", async () => {
    const { storage } = fakeStorage()
    const started = () => Effect.runSync(Metric.value(Metric.fiberStarted)).count
    // Each read of the count is a fiber of the default runtime, which counts itself: the second read
    // is one more than the first, and each fiber of the use case counted would be one more again.
    const before = started()
    const value = await runToPromise(inTransaction(storage, (tx) => tx.settings.putIfAbsent("secret", "a")))
    expect(value).toBe("a")
    expect(started() - before).toBe(1)
  })
})
