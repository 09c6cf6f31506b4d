import { Effect } from "effect"
import type { Forbidden, NotFound } from "../../errors.ts"
import type { CompanyId } from "../../model/ids.ts"
import type { Clock } from "../../ports/clock.ts"
import type { CompanyRecord, Repositories } from "../../ports/storage/index.ts"
import { type Actor, requireWrite } from "./actor.ts"
import { findLiveCompany } from "./lookups.ts"
import type { ServicePorts } from "./service-ports.ts"
import { inTransaction, type Lifted } from "./transaction.ts"
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

/** What a use case's transaction works with: its repositories, and its workspace's clock. */
export interface UseCaseScope {
  readonly tx: Lifted<Repositories>
  /**
   * The clock of the actor's workspace: read in this transaction on first use, then kept (no
   * read at all outside sandbox mode, see `workspaceClock`).
   */
  readonly readClock: Effect.Effect<Clock>
}

/** What a use case under a company works with: the company, live, besides its scope. */
export interface CompanyScope extends UseCaseScope {
  readonly company: CompanyRecord
}

/** The ports a use case's transaction needs: the storage, and the clocks. */
type TransactionPorts = Pick<ServicePorts, "storage" | "clock" | "testClocks">

const scopeOf = (ports: TransactionPorts, tx: Lifted<Repositories>, actor: Actor): UseCaseScope => {
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
