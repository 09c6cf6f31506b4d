import type { PaymentStatus } from "../model/types/payment.ts"

/**
 * The removal rule of funding accounts (spec "Funding accounts token": "An account with pending
 * or processing payments cannot be removed"): the statuses of payments drawing on an account
 * that keep it, and the message the person reads.
 */

/** Payments in these statuses still draw on their funding account. */
export const paymentStatusesKeepingFundingAccount: ReadonlyArray<PaymentStatus> = ["pending", "processing"]

/** Why a funding account with open payments stays. */
export const fundingAccountInUseMessage =
  "This account has pending or processing payments and cannot be removed until they finish"
