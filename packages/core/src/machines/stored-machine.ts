import { type AnyStateMachine, initialTransition, transition } from "xstate"
import type { WebhookEventName } from "../model/types/events.ts"
import type { JobKindName } from "../model/types/job-kinds.ts"

/**
 * What a transition implies besides its new status, for the service to carry out in the same
 * transaction as the status change: an outbox event to append, a job to queue, or an effect on
 * another aggregate that the machine names and the service knows how to write.
 */
export type MachineAction =
  | { readonly type: "emit"; readonly event: WebhookEventName }
  | { readonly type: "enqueue"; readonly job: JobKindName; readonly delayMs?: number }
  | { readonly type: "activate_entity_integration" }
  | { readonly type: "count_in_batch"; readonly outcome: "succeeded" | "failed" }

/** The params of each action a machine may name, as {@link machineActions} declares them to xstate's `setup`. */
export interface MachineActionParams {
  readonly emit: { readonly event: WebhookEventName }
  readonly enqueue: { readonly job: JobKindName; readonly delayMs?: number }
  readonly activate_entity_integration: undefined
  readonly count_in_batch: { readonly outcome: "succeeded" | "failed" }
}

/**
 * The actions a machine's `setup({ actions })` declares: they run nothing, since machines are
 * used purely, but they type each action's params, so the compiler checks every action a machine
 * names (a job kind that does not exist, an event that is not a webhook event). A machine may
 * declare narrower params (the payment machine emits payment events only).
 *
 * @example
 * import { setup } from "xstate"
 * setup({ actions: { enqueue: machineActions.enqueue } }).createMachine({
 *   entry: { type: "enqueue", params: { job: "execute_payment" } },
 * })
 */
export const machineActions = {
  emit: (_: unknown, _params: MachineActionParams["emit"]) => {},
  enqueue: (_: unknown, _params: MachineActionParams["enqueue"]) => {},
  activate_entity_integration: () => {},
  count_in_batch: (_: unknown, _params: MachineActionParams["count_in_batch"]) => {},
}

/**
 * `emit` narrowed to some webhook events, for a machine that may emit only those.
 *
 * @example
 * import { setup } from "xstate"
 * setup({ actions: { emit: emitOnly<WebhookEventNameOf<"PaymentEvents">>() } })
 */
export const emitOnly =
  <Event extends WebhookEventName>() =>
  (_: unknown, _params: { readonly event: Event }) => {}

/** An action as a machine declared it through {@link machineActions}: its type with its params. */
type DeclaredAction = {
  readonly [T in keyof MachineActionParams]: { readonly type: T; readonly params: MachineActionParams[T] }
}[keyof MachineActionParams]

/**
 * A machine named an action no {@link MachineAction} carries: a defect of the machine, never
 * dropped, since the change it implies would silently not happen.
 */
export class UnknownMachineAction extends Error {
  override readonly name = "UnknownMachineAction"
}

/** An event a machine takes: xstate's `EventObject`, written out so the public types need none of xstate's. */
export interface MachineEvent {
  readonly type: string
}

/**
 * One version of a machine: an xstate machine, opaque in the public types so that a consumer's
 * compiler does not load xstate's declarations (a fifth of its work, docs/benchmarks.md);
 * {@link decide} and {@link begin} run it.
 */
export interface MachineVersion {
  readonly id: string
}

/**
 * A machine whose state lives in stored rows: each row keeps the version of the machine that
 * wrote it, and every version stays here, so a row an older machine wrote is still decided by
 * the rules it was written under.
 */
export interface StoredMachine<Status extends string, Event extends MachineEvent, Context> {
  /** Names the resource in errors, e.g. "payment". */
  readonly resource: string
  /** The version new rows are written with. */
  readonly version: number
  /** The machine of each version ever stored; its context is `Context`. */
  readonly versions: Readonly<Record<number, MachineVersion>>
  /** Only for the types: the statuses, events and context of the machine. */
  readonly types?: { readonly status: Status; readonly event: Event; readonly context: Context }
}

/** What a machine decided: the next status and what it implies. */
export interface Decision<Status extends string> {
  readonly status: Status
  readonly actions: ReadonlyArray<MachineAction>
}

/** A stored row whose machine version this engine does not know: a defect, never a client error. */
export class UnknownMachineVersion extends Error {
  override readonly name = "UnknownMachineVersion"
}

const machineOf = (machine: StoredMachine<string, MachineEvent, unknown>, version: number): AnyStateMachine => {
  const found = machine.versions[version]
  if (found === undefined) {
    throw new UnknownMachineVersion(`a ${machine.resource} row was written by machine version ${version}, unknown here`)
  }
  return found as AnyStateMachine
}

const toAction = (executed: { readonly type: string; readonly params?: unknown }): MachineAction => {
  // The machine's typed `setup` checked the params of every action it names against its type.
  const action = executed as DeclaredAction
  switch (action.type) {
    case "emit":
      return { type: "emit", event: action.params.event }
    case "enqueue":
      return action.params.delayMs === undefined
        ? { type: "enqueue", job: action.params.job }
        : { type: "enqueue", job: action.params.job, delayMs: action.params.delayMs }
    case "activate_entity_integration":
      return { type: "activate_entity_integration" }
    case "count_in_batch":
      return { type: "count_in_batch", outcome: action.params.outcome }
    default: {
      const unknownAction: never = action
      throw new UnknownMachineAction(
        `a machine named the action ${JSON.stringify(unknownAction)}, which no executor knows`,
      )
    }
  }
}

const toActions = (actions: ReadonlyArray<{ readonly type: string; readonly params?: unknown }>): MachineAction[] =>
  actions.map(toAction)

/** Decisions a machine has made, by version, status, event and context: at most this many each. */
const rememberedPerMachine = 1024

const decisions = new WeakMap<object, Map<string, unknown>>()

/**
 * A machine's decision is a pure function of the row's version and status, the event and the
 * context (machines run no code of their own and read nothing else), so each is worked out by
 * xstate once: resolving a snapshot and transitioning cost more than the rest of a payment's
 * core work. Bounded, since an event may carry data; a full cache starts over.
 */
const remembered = <T>(machine: object, key: string, work: () => T): T => {
  let known = decisions.get(machine)
  if (known === undefined) {
    known = new Map()
    decisions.set(machine, known)
  }
  if (known.has(key)) return known.get(key) as T
  const decided = work()
  if (known.size >= rememberedPerMachine) known.clear()
  known.set(key, decided)
  return decided
}

/**
 * Asks the machine of a stored row (by the row's `machine_version`) what `event` does to it: the
 * next status with its actions, or undefined when the machine refuses the event in that status.
 * Pure: nothing runs; the caller writes the status (compare-and-set) and carries the actions out.
 *
 * @example
 * declare const row: PaymentRecord
 * decide(paymentMachine, row, { type: "complete" }, { batched: false })
 * // { status: "completed", actions: [{ type: "emit", event: "PaymentEvents::CompletedEvent" }] }
 */
export const decide = <Status extends string, Event extends MachineEvent, Context>(
  machine: StoredMachine<Status, Event, Context>,
  row: { readonly status: Status; readonly machine_version: number },
  event: Event,
  context: Context,
): Decision<Status> | undefined =>
  remembered(
    machine,
    `${row.machine_version}\u0000${row.status}\u0000${JSON.stringify(event)}\u0000${JSON.stringify(context)}`,
    () => {
      const logic = machineOf(machine, row.machine_version)
      const snapshot = logic.resolveState({ value: row.status, context })
      if (!snapshot.can(event)) return undefined
      const [next, actions] = transition(logic, snapshot, event)
      return { status: next.value as Status, actions: toActions(actions) }
    },
  )

/**
 * What creating a row implies: the current version's initial status with the actions of
 * entering it.
 *
 * @example
 * begin(paymentMachine, { batched: false })
 * // { status: "pending", actions: [{ type: "enqueue", job: "execute_payment" }] }
 */
export const begin = <Status extends string, Event extends MachineEvent, Context>(
  machine: StoredMachine<Status, Event, Context>,
  context: Context,
): Decision<Status> =>
  remembered(machine, `begin\u0000${JSON.stringify(context)}`, () => {
    const [first, actions] = initialTransition(machineOf(machine, machine.version), context)
    return { status: first.value as Status, actions: toActions(actions) }
  })
