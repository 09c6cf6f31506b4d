import fc from "fast-check"
import { expect, it } from "vitest"
import { type FeatureStatus, featureStatuses } from "../model/feature.ts"
import { decideFeatureMove, type FeatureEvent, featureMachine } from "./feature-machine.ts"
import { decide, UnknownMachineVersion } from "./stored-machine.ts"

const allowed: Record<string, FeatureStatus> = {
  "CREATED submit": "SUBMITTED",
  "SUBMITTED approve": "ACTIVE",
  "SUBMITTED require_action": "ACTION_REQUIRED",
  "ACTION_REQUIRED submit": "SUBMITTED",
}

const event = fc.constantFrom<FeatureEvent>({ type: "submit" }, { type: "approve" }, { type: "require_action" })
const target = fc.constantFrom("SUBMITTED", "ACTIVE", "ACTION_REQUIRED" as const)
const row = (status: FeatureStatus) => ({ status, machine_version: 1 })

it("allows exactly the transitions of the feature life cycle; approval alone activates the entity's integration", () => {
  fc.assert(
    fc.property(fc.constantFrom(...featureStatuses), event, (status, e) => {
      const decision = decide(featureMachine, row(status), e, undefined)
      expect(decision?.status).toBe(allowed[`${status} ${e.type}`])
      if (decision === undefined) return
      expect(decision.actions).toEqual(decision.status === "ACTIVE" ? [{ type: "activate_entity_integration" }] : [])
    }),
  )
})

it("moves by target status along exactly the spec's four edges", () => {
  const edges = new Set([
    "CREATED>SUBMITTED",
    "SUBMITTED>ACTIVE",
    "SUBMITTED>ACTION_REQUIRED",
    "ACTION_REQUIRED>SUBMITTED",
  ])
  fc.assert(
    fc.property(fc.constantFrom(...featureStatuses), target, (from, to) => {
      expect(decideFeatureMove(row(from), to) !== undefined).toBe(edges.has(`${from}>${to}`))
    }),
  )
})

it("never leaves ACTIVE, and reaches it only through SUBMITTED", () => {
  fc.assert(
    fc.property(fc.array(event, { maxLength: 12 }), (events) => {
      let status: FeatureStatus = "CREATED"
      const seen: FeatureStatus[] = [status]
      for (const e of events) {
        status = decide(featureMachine, row(status), e, undefined)?.status ?? status
        seen.push(status)
      }
      const firstActive = seen.indexOf("ACTIVE")
      if (firstActive >= 0) {
        expect(new Set(seen.slice(firstActive))).toEqual(new Set(["ACTIVE"]))
        expect(seen[firstActive - 1]).toBe("SUBMITTED")
      }
    }),
  )
})

it("refuses a row written by a machine version it does not know", () => {
  expect(() => decideFeatureMove({ status: "SUBMITTED", machine_version: 9 }, "ACTIVE")).toThrow(UnknownMachineVersion)
})
