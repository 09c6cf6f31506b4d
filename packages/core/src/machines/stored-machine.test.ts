import { expect, it } from "vitest"
import { setup } from "xstate"
import { begin, decide, emitOnly, machineActions, type StoredMachine, UnknownMachineAction } from "./stored-machine.ts"

type Status = "open" | "shut"
type Event = { readonly type: "shut" }

const storedMachine = (logic: StoredMachine<Status, Event, undefined>["versions"][number]) =>
  ({ resource: "door", version: 1, versions: { 1: logic } }) satisfies StoredMachine<Status, Event, undefined>

const declared = setup({
  types: { events: {} as Event },
  actions: { enqueue: machineActions.enqueue, emit: emitOnly<"PaymentBatchCompletedEvent">() },
})

it("turns the actions a machine names into what the executor carries out", () => {
  const door = storedMachine(
    declared.createMachine({
      initial: "open",
      states: {
        open: {
          entry: { type: "enqueue", params: { job: "expire_batch", delayMs: 60_000 } },
          on: { shut: { target: "shut", actions: { type: "emit", params: { event: "PaymentBatchCompletedEvent" } } } },
        },
        shut: {},
      },
    }),
  )
  expect(begin(door, undefined)).toEqual({
    status: "open",
    actions: [{ type: "enqueue", job: "expire_batch", delayMs: 60_000 }],
  })
  expect(decide(door, { status: "open", machine_version: 1 }, { type: "shut" }, undefined)).toEqual({
    status: "shut",
    actions: [{ type: "emit", event: "PaymentBatchCompletedEvent" }],
  })
})

it("does not compile a machine that queues a job kind or emits an event that does not exist", () => {
  declared.createMachine({
    initial: "open",
    states: {
      open: {
        // @ts-expect-error no job kind is called no_such_job
        entry: { type: "enqueue", params: { job: "no_such_job" } },
        // @ts-expect-error this machine emits PaymentBatchCompletedEvent only
        on: { shut: { target: "shut", actions: { type: "emit", params: { event: "PaymentEvents::CompletedEvent" } } } },
      },
      shut: {},
    },
  })
  // @ts-expect-error emitOnly takes webhook event names only
  emitOnly<"NoSuchEvent">()
})

it("throws, never drops, an action no executor knows", () => {
  const door = storedMachine(
    setup({ types: { events: {} as Event }, actions: { open_the_vault: () => {} } }).createMachine({
      initial: "open",
      states: { open: { on: { shut: { target: "shut", actions: { type: "open_the_vault" } } } }, shut: {} },
    }),
  )
  expect(() => decide(door, { status: "open", machine_version: 1 }, { type: "shut" }, undefined)).toThrow(
    UnknownMachineAction,
  )
})
