import { Effect } from "effect"
import type { Forbidden, NotFound } from "../../errors.ts"
import type { CompanyId } from "../../model/ids.ts"
import type { Clock } from "../../ports/clock.ts"
import type { CompanyRecord, Repositories } from "../../ports/storage/index.ts"
import { type Actor, requireWrite } from "./actor.ts"
import { findLiveCompany } from "./lookups.ts"
import type { ServicePorts } from "./service-ports.ts"
import { inRead, inTransaction, type Lifted, type ReadRepositories } from "./transaction.ts"
import { workspaceClock } from "./workspace-clock.ts"

/*
 * The steps every use case takes, written once: its access, its transaction, the live company
 * it works under and its workspace's clock. A use case states what it needs and gets them.
 */

/**
 * A use case that changes things: a read-only actor is `forbidden` before anything else of it
 * runs (its input is not even decoded).
 */
export const writeAccess =
  (actor: Actor) =>
  <A, E, R>(useCase: Effect.Effect<A, E, R>): Effect.Effect<A, E | Forbidden, R> =>
    Effect.zipRight(requireWrite(actor), useCase)

/**
 * What a use case's transaction works with: its repositories (their reading methods only in a
 * read scope), and its workspace's clock.
 */
export interface UseCaseScope<Rs = Repositories> {
  readonly tx: Lifted<Rs>
  /**
   * The clock of the actor's workspace: read in this transaction on first use, then kept (no
   * read at all outside sandbox mode, see `workspaceClock`).
   */
  readonly readClock: Effect.Effect<Clock>
}

/** What a use case under a company works with: the company, live, besides its scope. */
export interface CompanyScope<Rs = Repositories> extends UseCaseScope<Rs> {
  readonly company: CompanyRecord
}

/** What a use case that only reads works with (see {@link readInWorkspace}). */
export type ReadScope = UseCaseScope<ReadRepositories>

/** What a use case that only reads under a company works with (see {@link readInCompany}). */
export type CompanyReadScope = CompanyScope<ReadRepositories>

/** The ports a use case's transaction needs: the storage, and the clocks. */
type TransactionPorts = Pick<ServicePorts, "storage" | "clock" | "testClocks">

const scopeOf = <Rs extends ReadRepositories>(
  ports: TransactionPorts,
  tx: Lifted<Rs>,
  actor: Actor,
): UseCaseScope<Rs> => {
  let read: Clock | undefined
  const readClock = Effect.suspend(() =>
    read === undefined
      ? Effect.tap(workspaceClock(ports, tx, actor.workspaceId), (clock) => {
          read = clock
        })
      : Effect.succeed(read),
  )
  return { tx, readClock }
}

/**
 * Runs `work` in one transaction of the actor's workspace.
 */
export const inWorkspace = <A, E>(
  ports: TransactionPorts,
  actor: Actor,
  work: (scope: UseCaseScope) => Effect.Effect<A, E>,
): Effect.Effect<A, E> => inTransaction(ports.storage, (tx) => work(scopeOf(ports, tx, actor)))

/**
 * Runs `work` in one transaction under the actor's live company `companyId`: a company the
 * actor cannot see, or a deleted one, is `not_found` on `company_id` before `work` runs.
 */
export const inCompany = <A, E>(
  ports: TransactionPorts,
  actor: Actor,
  companyId: CompanyId,
  work: (scope: CompanyScope) => Effect.Effect<A, E>,
): Effect.Effect<A, E | NotFound> =>
  inTransaction(ports.storage, (tx) =>
    Effect.flatMap(findLiveCompany(tx, actor, companyId), (company) => work({ ...scopeOf(ports, tx, actor), company })),
  )

/**
 * Runs `work` that only reads in the storage's read scope (see `inRead`), for the actor's
 * workspace: no write lock is taken, so a read does not wait behind writes.
 */
export const readInWorkspace = <A, E>(
  ports: TransactionPorts,
  actor: Actor,
  work: (scope: ReadScope) => Effect.Effect<A, E>,
): Effect.Effect<A, E> => inRead(ports.storage, (tx) => work(scopeOf(ports, tx, actor)))

/**
 * Runs `work` that only reads in the storage's read scope under the actor's live company
 * `companyId`, `not_found` on `company_id` as {@link inCompany} is.
 */
export const readInCompany = <A, E>(
  ports: TransactionPorts,
  actor: Actor,
  companyId: CompanyId,
  work: (scope: CompanyReadScope) => Effect.Effect<A, E>,
): Effect.Effect<A, E | NotFound> =>
  inRead(ports.storage, (tx) =>
    Effect.flatMap(findLiveCompany(tx, actor, companyId), (company) => work({ ...scopeOf(ports, tx, actor), company })),
  )
