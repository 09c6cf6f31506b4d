import type {
  BankAccountOwner,
  BankAccountRecord,
  FundingMandateRecord,
  OwnerType,
  PaymentProfileRecord,
  ProfileInUse,
  ProfileStatus,
  UsageType,
} from "../../model/types/bank-account.ts"
import type { BankAccountId, CompanyId, EntityId, PaymentProfileId, RecipientId } from "../../model/types/ids.ts"
import type { Awaitable } from "../awaitable.ts"
import type { Slice, Window } from "./list-window.ts"

export type {
  AccountDetailRecord,
  BankAccountRecord,
  FundingMandateRecord,
  PartyAddressRecord,
  PaymentProfileRecord,
  ProfileInUse,
  RoutingDetailRecord,
} from "../../model/types/bank-account.ts"

/**
 * Repositories of bank accounts and their payment profiles. Part of {@link Repositories}; same
 * conventions (ISO timestamps as text, lists in id order).
 */

export type { BankAccountOwner, OwnerType, ProfileStatus, UsageType }

export interface BankAccountRepository {
  insert(row: BankAccountRecord): Awaitable<void>
  find(companyId: CompanyId, id: BankAccountId): Awaitable<BankAccountRecord | undefined>
  /** Accounts of the company, recipients' and entities' alike. */
  listByCompany(companyId: CompanyId, window: Window): Awaitable<Slice<BankAccountRecord>>
  /** Accounts of these owners, in id order (to embed in recipients). */
  listByOwners(
    ownerType: OwnerType,
    ownerIds: ReadonlyArray<EntityId | RecipientId>,
  ): Awaitable<ReadonlyArray<BankAccountRecord>>
}

/** The mandates given when funding accounts were linked on the hosted page: one per account at most. */
export interface FundingMandateRepository {
  insert(row: FundingMandateRecord): Awaitable<void>
  /** The mandates of these accounts of the company, in bank-account id order. */
  listByBankAccounts(
    companyId: CompanyId,
    bankAccountIds: ReadonlyArray<BankAccountId>,
  ): Awaitable<ReadonlyArray<FundingMandateRecord>>
}

export interface PaymentProfileRepository {
  insert(row: PaymentProfileRecord): Awaitable<void>
  find(companyId: CompanyId, id: PaymentProfileId): Awaitable<PaymentProfileRecord | undefined>
  /**
   * The company's profiles among `ids`, in id order, in one read (a list of payments shows the
   * profiles of all of them). Ids of other companies, or of no profile, are left out.
   */
  findMany(companyId: CompanyId, ids: ReadonlyArray<PaymentProfileId>): Awaitable<ReadonlyArray<PaymentProfileRecord>>
  /**
   * The company's profiles among `ids`, each with its account's owner and links, in one read
   * (quotes and payments call it on their hot path). Ids of other companies, or of no profile,
   * are left out; the order is free.
   */
  findInUse(companyId: CompanyId, ids: ReadonlyArray<PaymentProfileId>): Awaitable<ReadonlyArray<ProfileInUse>>
  /** Profiles of these bank accounts, in id order. */
  listByBankAccounts(bankAccountIds: ReadonlyArray<BankAccountId>): Awaitable<ReadonlyArray<PaymentProfileRecord>>
  /**
   * Moves the company's profile `id` from `from` to `to`, writing `updatedAt`, only if it is still
   * in `from`; the updated row, or undefined when it is not (another writer moved it, or no such
   * profile in the company).
   */
  compareAndSetStatus(
    companyId: CompanyId,
    id: PaymentProfileId,
    from: ProfileStatus,
    to: ProfileStatus,
    updatedAt: string,
  ): Awaitable<PaymentProfileRecord | undefined>
}
