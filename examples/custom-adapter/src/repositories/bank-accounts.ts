import type { BankAccountRepository, FundingMandateRepository, PaymentProfileRepository } from "@payments-engine/core"
import type { Tables } from "../memory-tables.ts"
import { byId, findScoped, freeze, isLive, windowOf } from "./rows.ts"

/** Bank accounts over one transaction's tables, each scoped by its company. */
export const memoryBankAccountRepository = (t: Pick<Tables, "bankAccounts">): BankAccountRepository => ({
  insert: async (row) => void t.bankAccounts.set(row.id, freeze(row)),
  find: async (companyId, id) => findScoped(t.bankAccounts, id, (row) => row.company_id === companyId),
  listByCompany: async (companyId, window) =>
    windowOf(t.bankAccounts.values(), (r) => r.company_id === companyId, window),
  listByOwners: async (ownerType, ownerIds) =>
    [...t.bankAccounts.values()].filter((r) => r.owner_type === ownerType && ownerIds.includes(r.owner_id)).sort(byId),
})

/**
 * Payment profiles over one transaction's tables; `findInUse` reads the account and its owner
 * (entity or recipient) to tell whether the owner is live.
 */
export const memoryPaymentProfileRepository = (
  t: Pick<Tables, "paymentProfiles" | "bankAccounts" | "entities" | "recipients">,
): PaymentProfileRepository => ({
  insert: async (row) => void t.paymentProfiles.set(row.id, freeze(row)),
  find: async (companyId, id) => findScoped(t.paymentProfiles, id, (row) => row.company_id === companyId),
  findMany: async (companyId, ids) =>
    [...t.paymentProfiles.values()].filter((r) => r.company_id === companyId && ids.includes(r.id)).sort(byId),
  findInUse: async (companyId, ids) =>
    ids.flatMap((id) => {
      const profile = t.paymentProfiles.get(id)
      const account = profile && t.bankAccounts.get(profile.bank_account_id)
      if (profile?.company_id !== companyId || account === undefined) return []
      // `owner_type` tells which table `owner_id` is a key of.
      const { pair, owner } =
        account.owner_type === "Entity"
          ? {
              pair: { owner_type: account.owner_type, owner_id: account.owner_id },
              owner: t.entities.get(account.owner_id),
            }
          : {
              pair: { owner_type: account.owner_type, owner_id: account.owner_id },
              owner: t.recipients.get(account.owner_id),
            }
      const live = owner !== undefined && owner.company_id === companyId && isLive(owner)
      return [
        {
          profile,
          ...pair,
          provider_connection_id: account.provider_connection_id,
          provider_beneficiary_id: account.provider_beneficiary_id,
          owner_live: live,
          integration_active: live && "payment_integration_active" in owner && owner.payment_integration_active,
        },
      ]
    }),
  listByBankAccounts: async (ids) =>
    [...t.paymentProfiles.values()].filter((r) => ids.includes(r.bank_account_id)).sort(byId),
  compareAndSetStatus: async (companyId, id, from, to, updatedAt) => {
    const row = t.paymentProfiles.get(id)
    if (row === undefined || row.company_id !== companyId || row.status !== from) return undefined
    const next = freeze({ ...row, status: to, updated_at: updatedAt })
    t.paymentProfiles.set(id, next)
    return next
  },
})

/** Funding mandates, one per bank account, scoped by its company. */
export const memoryFundingMandateRepository = (t: Pick<Tables, "fundingMandates">): FundingMandateRepository => ({
  insert: async (row) => void t.fundingMandates.set(row.bank_account_id, freeze(row)),
  listByBankAccounts: async (companyId, ids) =>
    [...t.fundingMandates.values()]
      .filter((r) => r.company_id === companyId && ids.includes(r.bank_account_id))
      .sort((a, b) => (a.bank_account_id < b.bank_account_id ? -1 : a.bank_account_id > b.bank_account_id ? 1 : 0)),
})
