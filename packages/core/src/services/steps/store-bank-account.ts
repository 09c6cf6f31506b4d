import { Effect } from "effect"
import { type BankAccount, toBankAccount, toPaymentProfile } from "../../model/bank-account.ts"
import type { WorkspaceId } from "../../model/ids.ts"
import type { Clock } from "../../ports/clock.ts"
import type { BankAccountRecord, PaymentProfileRecord, Repositories } from "../../ports/storage/index.ts"
import { appendEvents, bankAccountEventPayload, paymentProfileEventPayload } from "./outbox.ts"
import type { ServicePorts } from "./service-ports.ts"
import { inTransaction, type Lifted } from "./transaction.ts"

/**
 * Stores a new bank account with its one payment profile, and their created events, in one
 * transaction, stamped by the workspace's `clock`: the same for recipient accounts and linked
 * funding accounts. `alsoInTransaction` runs first in the same transaction, and its failure stores
 * nothing (a hosted page's token used up by the account it added).
 */
export const storeNewBankAccount = <E = never>(
  ports: ServicePorts,
  clock: Clock,
  workspaceId: WorkspaceId,
  account: BankAccountRecord,
  profile: PaymentProfileRecord,
  alsoInTransaction?: (tx: Lifted<Repositories>) => Effect.Effect<void, E>,
): Effect.Effect<BankAccount, E> => {
  const created = toBankAccount(account, [profile])
  const now = clock.now()
  const owner = { workspaceId, companyId: account.company_id }
  return inTransaction(ports.storage, (tx) =>
    Effect.gen(function* () {
      if (alsoInTransaction !== undefined) yield* alsoInTransaction(tx)
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
