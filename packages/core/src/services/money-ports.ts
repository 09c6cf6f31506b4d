import type { BankLinkProvider } from "../ports/bank-link-provider.ts"
import type { PaymentProvider } from "../ports/payment-provider.ts"
import type { FeeSchedule } from "../rules/fee-schedule.ts"
import type { EnginePorts } from "./ports.ts"

/** The ports money movement needs besides storage, clock and ids. */
export interface MoneyPorts extends EnginePorts {
  readonly paymentProvider: PaymentProvider
  readonly bankLinker: BankLinkProvider
  /** Fees and FX margin. */
  readonly feeSchedule: FeeSchedule
}
