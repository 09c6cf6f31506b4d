import fc from "fast-check"
import { expect, it } from "vitest"
import {
  canMoveFeature,
  type FeatureEvent,
  type FeatureStatus,
  featureStatuses,
  nextFeatureStatus,
} from "./feature-machine.ts"

const allowed: Record<string, FeatureStatus> = {
  "CREATED submit": "SUBMITTED",
  "SUBMITTED approve": "ACTIVE",
  "SUBMITTED require_action": "ACTION_REQUIRED",
  "ACTION_REQUIRED submit": "SUBMITTED",
}

const event = fc.constantFrom<FeatureEvent>({ type: "submit" }, { type: "approve" }, { type: "require_action" })
const target = fc.constantFrom("SUBMITTED", "ACTIVE", "ACTION_REQUIRED" as const)

it("allows exactly the transitions of the feature life cycle", () => {
  fc.assert(
    fc.property(fc.constantFrom(...featureStatuses), event, (status, e) => {
      expect(nextFeatureStatus(status, e)).toBe(allowed[`${status} ${e.type}`])
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
      expect(canMoveFeature(from, to)).toBe(edges.has(`${from}>${to}`))
    }),
  )
})

it("never leaves ACTIVE, and reaches it only through SUBMITTED", () => {
  fc.assert(
    fc.property(fc.array(event, { maxLength: 12 }), (events) => {
      let status: FeatureStatus = "CREATED"
      const seen: FeatureStatus[] = [status]
      for (const e of events) {
        status = nextFeatureStatus(status, e) ?? status
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
