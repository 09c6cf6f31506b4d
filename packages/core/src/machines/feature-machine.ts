import { setup, transition } from "xstate"

/** Statuses of an entity feature application (the spec's Feature states). */
export const featureStatuses = ["CREATED", "SUBMITTED", "ACTIVE", "ACTION_REQUIRED"] as const
export type FeatureStatus = (typeof featureStatuses)[number]

/**
 * What can happen to a feature application: the user submits it (onboarding done, or the
 * information asked for provided), the provider approves it, or asks for more information.
 */
export type FeatureEvent =
  | { readonly type: "submit" }
  | { readonly type: "approve" }
  | { readonly type: "require_action" }

/** Stored with each feature, so a later machine can still read rows written by this one. */
export const featureMachineVersion = 1

/**
 * The feature life cycle (spec, "Feature (multi_currency_account)"): CREATED -> SUBMITTED ->
 * ACTIVE or ACTION_REQUIRED; ACTION_REQUIRED -> SUBMITTED. Used purely: the stored status is the
 * truth, this only decides.
 */
export const featureMachine = setup({ types: { events: {} as FeatureEvent } }).createMachine({
  id: "feature",
  initial: "CREATED",
  states: {
    CREATED: { on: { submit: "SUBMITTED" } },
    SUBMITTED: { on: { approve: "ACTIVE", require_action: "ACTION_REQUIRED" } },
    ACTION_REQUIRED: { on: { submit: "SUBMITTED" } },
    ACTIVE: { type: "final" },
  },
})

/**
 * The status after `event`, or undefined when the machine does not allow it from `status`.
 *
 * @example
 * nextFeatureStatus("SUBMITTED", { type: "approve" }) // "ACTIVE"
 * nextFeatureStatus("CREATED", { type: "approve" }) // undefined
 */
export const nextFeatureStatus = (status: FeatureStatus, event: FeatureEvent): FeatureStatus | undefined => {
  const snapshot = featureMachine.resolveState({ value: status, context: {} })
  if (!snapshot.can(event)) return undefined
  const [next] = transition(featureMachine, snapshot, event)
  return next.value as FeatureStatus
}

/** The event that leads into each status a feature can be moved to; CREATED is only ever the start. */
const eventInto: Readonly<Record<Exclude<FeatureStatus, "CREATED">, FeatureEvent>> = {
  SUBMITTED: { type: "submit" },
  ACTIVE: { type: "approve" },
  ACTION_REQUIRED: { type: "require_action" },
}

/**
 * Whether the machine moves a feature from `from` to `to`, asked the way the sandbox helper
 * is (by target status rather than by event).
 *
 * @example
 * canMoveFeature("CREATED", "SUBMITTED") // true
 * canMoveFeature("CREATED", "ACTIVE") // false
 */
export const canMoveFeature = (from: FeatureStatus, to: Exclude<FeatureStatus, "CREATED">): boolean =>
  nextFeatureStatus(from, eventInto[to]) === to
