import { Effect } from "effect"
import type { Decision, MachineAction } from "../../machines/stored-machine.ts"

/** The action of type `T`. */
export type ActionOf<T extends MachineAction["type"]> = Extract<MachineAction, { readonly type: T }>

/**
 * How an aggregate carries out the actions its machine may ask for, one function per action
 * type. A type its machine never asks for is left out: asked for anyway, it is a defect.
 */
export type ActionCarriers<E = never> = {
  readonly [T in MachineAction["type"]]?: (action: ActionOf<T>) => Effect.Effect<unknown, E>
}

/** The machine a decision came from, as far as its defects name it. */
interface DecidingMachine {
  readonly resource: string
}

const carriedBy = <A extends MachineAction, E>(
  machine: DecidingMachine,
  action: A,
  carrier: ((action: A) => Effect.Effect<unknown, E>) | undefined,
): Effect.Effect<unknown, E> =>
  carrier === undefined
    ? Effect.dieMessage(
        `the ${machine.resource} machine asked for ${JSON.stringify(action)}, which ${machine.resource}s do not carry out`,
      )
    : carrier(action)

/** An action type no case below names: a compile error here, never a silent drop. */
const unknownAction = (action: never): never => {
  throw new Error(`unknown machine action ${JSON.stringify(action)}`)
}

const carryOutAction = <E>(
  machine: DecidingMachine,
  action: MachineAction,
  carriers: ActionCarriers<E>,
): Effect.Effect<unknown, E> => {
  switch (action.type) {
    case "emit":
      return carriedBy(machine, action, carriers.emit)
    case "enqueue":
      return carriedBy(machine, action, carriers.enqueue)
    case "activate_entity_integration":
      return carriedBy(machine, action, carriers.activate_entity_integration)
    case "count_in_batch":
      return carriedBy(machine, action, carriers.count_in_batch)
    default:
      return unknownAction(action)
  }
}

/**
 * Carries out a machine's actions in order, in the caller's transaction, each by its
 * aggregate's carrier: for a row just created (`begin`'s actions), or rows written together.
 */
export const carryOutActions = <E>(
  machine: DecidingMachine,
  actions: ReadonlyArray<MachineAction>,
  carriers: ActionCarriers<E>,
): Effect.Effect<void, E> =>
  Effect.forEach(actions, (action) => carryOutAction(machine, action, carriers), { discard: true })

/**
 * Applies a machine's decision to a stored row, for every aggregate: its status written by the
 * aggregate's compare-and-set, then, once that won, the decision's actions carried out on the
 * row as written. Undefined when another writer won.
 */
export const applyDecision = <Status extends string, Row, E1, E2>(
  machine: DecidingMachine,
  decision: Decision<Status>,
  write: {
    readonly compareAndSet: (status: Status) => Effect.Effect<Row | undefined, E1>
    readonly carriers: (moved: Row) => ActionCarriers<E2>
  },
): Effect.Effect<Row | undefined, E1 | E2> =>
  Effect.gen(function* () {
    const moved = yield* write.compareAndSet(decision.status)
    if (moved === undefined) return undefined
    yield* carryOutActions(machine, decision.actions, write.carriers(moved))
    return moved
  })
