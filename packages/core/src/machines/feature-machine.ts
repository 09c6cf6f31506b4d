import { setup } from "xstate"
import type { FeatureStatus } from "../model/types/feature.ts"
import { decide, machineActions, type StoredMachine } from "./stored-machine.ts"

/**
 * What can happen to a feature application: the user submits it (onboarding done, or the
 * information asked for provided), the provider approves it, or asks for more information.
 */
export type FeatureEvent =
  | { readonly type: "submit" }
  | { readonly type: "approve" }
  | { readonly type: "require_action" }

/**
 * The feature life cycle, version 1 (spec, "Feature (multi_currency_account)"): CREATED ->
 * SUBMITTED -> ACTIVE or ACTION_REQUIRED; ACTION_REQUIRED -> SUBMITTED. Approval gives the entity
 * its active payment integration, in the same change. Used purely through {@link decide}.
 */
const featureMachineV1 = setup({
  types: { events: {} as FeatureEvent },
  actions: { activate_entity_integration: machineActions.activate_entity_integration },
}).createMachine({
  id: "feature",
  initial: "CREATED",
  states: {
    CREATED: { on: { submit: "SUBMITTED" } },
    SUBMITTED: {
      on: {
        approve: { target: "ACTIVE", actions: { type: "activate_entity_integration" } },
        require_action: "ACTION_REQUIRED",
      },
    },
    ACTION_REQUIRED: { on: { submit: "SUBMITTED" } },
    ACTIVE: { type: "final" },
  },
})

/** Stored with each feature, so a later machine can still read rows written by this one. */
export const featureMachineVersion = 1

/** The feature machine of every stored version. */
export const featureMachine: StoredMachine<FeatureStatus, FeatureEvent, undefined> = {
  resource: "feature",
  version: featureMachineVersion,
  versions: { 1: featureMachineV1 },
}

/** The event that leads into each status a feature can be moved to; CREATED is only ever the start. */
const eventInto: Readonly<Record<Exclude<FeatureStatus, "CREATED">, FeatureEvent>> = {
  SUBMITTED: { type: "submit" },
  ACTIVE: { type: "approve" },
  ACTION_REQUIRED: { type: "require_action" },
}

/**
 * What moving a stored feature to `to` decides, asked the way the sandbox helper is (by target
 * status rather than by event): the decision when the machine moves it there, else undefined.
 *
 * @example
 * decideFeatureMove({ status: "SUBMITTED", machine_version: 1 }, "ACTIVE")
 * // { status: "ACTIVE", actions: [{ type: "activate_entity_integration" }] }
 */
export const decideFeatureMove = (
  row: { readonly status: FeatureStatus; readonly machine_version: number },
  to: Exclude<FeatureStatus, "CREATED">,
) => {
  const decision = decide(featureMachine, row, eventInto[to], undefined)
  return decision?.status === to ? decision : undefined
}
