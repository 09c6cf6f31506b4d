import { describe, expect, it } from "vitest"
import { createEngine, type EngineOptions } from "./engine.ts"
import { brandId } from "./model/ids.ts"
import type { BankLinkProvider } from "./ports/bank-link-provider.ts"
import type { PaymentProvider } from "./ports/payment-provider.ts"
import { defaultFeeSchedule, type FeeSchedule } from "./rules/fee-schedule.ts"

/** Ports never reached: making an engine only reads its options. */
const unreachable = () => {
  throw new Error("not reached")
}
const options: EngineOptions = {
  storage: {
    capabilities: { multiProcess: false, concurrentTransactions: false },
    transaction: async () => unreachable(),
    createJobRunner: () => unreachable(),
    close: async () => {},
  },
  clock: { now: () => new Date("2026-11-23T00:00:00.000Z") },
  ids: { next: (prefix) => brandId(prefix, `${prefix}_1`) },
  hasher: { hash: async () => unreachable(), verify: async () => unreachable() },
  serverSecret: { read: async () => unreachable() },
  paymentProvider: {} as PaymentProvider,
  bankLinker: {} as BankLinkProvider,
}

const withAchFee = (fixed: string): FeeSchedule => ({
  ...defaultFeeSchedule,
  methods: { ...defaultFeeSchedule.methods, ach: { fixed: { USD: fixed }, basisPoints: 0 } },
})

describe("createEngine's fee schedule", () => {
  it("refuses a fixed fee that does not parse, naming where it is", () => {
    expect(() => createEngine({ ...options, feeSchedule: withAchFee("abc") })).toThrow(
      new RangeError('feeSchedule.methods.ach.fixed.USD must be a decimal amount, got "abc"'),
    )
  })

  it("refuses a margin that is not whole basis points", () => {
    expect(() =>
      createEngine({ ...options, feeSchedule: { ...defaultFeeSchedule, fxMarginBasisPoints: 0.5 } }),
    ).toThrow(RangeError)
  })

  it("takes a schedule that parses, and the default", () => {
    expect(() => createEngine({ ...options, feeSchedule: withAchFee("0.30") })).not.toThrow()
    expect(() => createEngine(options)).not.toThrow()
  })
})
