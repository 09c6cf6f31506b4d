import { Effect } from "effect"
import { type BankAccount, toBankAccount, toPaymentProfile } from "../model/bank-account.ts"
import type { WorkspaceId } from "../model/ids.ts"
import type { Clock } from "../ports/clock.ts"
import type { BankAccountRecord, PaymentProfileRecord } from "../ports/storage/index.ts"
import { appendEvents, bankAccountEventPayload, paymentProfileEventPayload } from "./events.ts"
import type { ServicePorts } from "./ports.ts"
import { inTransaction } from "./transaction.ts"

/**
 * Stores a new bank account with its one payment profile, and their created events, in one
 * transaction, stamped by the workspace's `clock`: the same for recipient accounts and linked
 * funding accounts.
 */
export const storeNewBankAccount = (
  ports: ServicePorts,
  clock: Clock,
  workspaceId: WorkspaceId,
  account: BankAccountRecord,
  profile: PaymentProfileRecord,
): Effect.Effect<BankAccount> => {
  const created = toBankAccount(account, [profile])
  const now = clock.now()
  const owner = { workspaceId, companyId: account.company_id }
  return inTransaction(ports.storage, (tx) =>
    Effect.gen(function* () {
      yield* tx.bankAccounts.insert(account)
      yield* tx.paymentProfiles.insert(profile)
      yield* appendEvents(
        ports,
        tx,
        [
          { ...owner, payload: bankAccountEventPayload("BankAccountEvents::CreatedEvent", { now, data: created }) },
          {
            ...owner,
            payload: paymentProfileEventPayload("PaymentProfileEvents::CreatedEvent", {
              now,
              data: toPaymentProfile(profile),
            }),
          },
        ],
        clock,
      )
      return created
    }),
  )
}
