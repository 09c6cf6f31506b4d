import { Effect } from "effect"
import { type BankAccount, toBankAccount, toPaymentProfile } from "../model/bank-account.ts"
import type { BankAccountRecord, PaymentProfileRecord } from "../ports/storage/index.ts"
import { appendEvents, unixSeconds } from "./events.ts"
import type { MoneyPorts } from "./money-ports.ts"
import { inTransaction } from "./transaction.ts"

/**
 * Stores a new bank account with its one payment profile, and their created events, in one
 * transaction: the same for recipient accounts and linked funding accounts.
 */
export const storeNewBankAccount = (
  ports: MoneyPorts,
  workspaceId: string,
  account: BankAccountRecord,
  profile: PaymentProfileRecord,
): Effect.Effect<BankAccount> => {
  const created = toBankAccount(account, [profile])
  const timestamp = unixSeconds(ports.clock.now())
  const event = (name: string, resourceId: string, data: unknown) => ({
    workspaceId,
    companyId: account.company_id,
    event: name,
    resourceId,
    payload: { event: name, timestamp, data },
  })
  return inTransaction(ports.storage, (tx) =>
    Effect.gen(function* () {
      yield* tx.bankAccounts.insert(account)
      yield* tx.paymentProfiles.insert(profile)
      yield* appendEvents(ports, tx, [
        event("BankAccountEvents::CreatedEvent", account.id, created),
        event("PaymentProfileEvents::CreatedEvent", profile.id, toPaymentProfile(profile)),
      ])
      return created
    }),
  )
}
