import type {
  BankAccountRecord,
  BankAccountRepository,
  CompanyId,
  FundingMandateRepository,
  PaymentProfileId,
  PaymentProfileRecord,
  PaymentProfileRepository,
  ProfileInUse,
  ProfileStatus,
  UsageType,
} from "@payments-engine/core"
import { bankAccountOwner } from "@payments-engine/core/effect"
import type { Kysely, Selectable } from "kysely"
import { preparedQuery } from "../prepared-query.ts"
import type { BankAccountsTable, PaymentProfilesTable, StorageTables } from "../storage-tables.ts"
import { bankAccountColumns, paymentProfileColumns } from "../table-columns.ts"
import { pageOf } from "./paging.ts"
import { scopedFind } from "./scoped-find.ts"

type Db = Kysely<StorageTables>

const toBankAccount = ({ owner_type, owner_id, ...row }: Selectable<BankAccountsTable>): BankAccountRecord => ({
  ...row,
  ...bankAccountOwner(owner_type, owner_id),
  account_details: JSON.parse(row.account_details),
  routing_details: JSON.parse(row.routing_details),
  party_address: row.party_address === null ? null : JSON.parse(row.party_address),
})

const bankAccountRow = (row: BankAccountRecord): BankAccountsTable => ({
  ...row,
  account_details: JSON.stringify(row.account_details),
  routing_details: JSON.stringify(row.routing_details),
  party_address: row.party_address === null ? null : JSON.stringify(row.party_address),
})

const findBankAccount = scopedFind("bank_accounts", "company_id", bankAccountColumns, toBankAccount)

/**
 * Bank accounts over one Kysely handle; details and address are stored as JSON text.
 *
 * @example
 * declare const accountId: BankAccountId
 * const account = await kyselyBankAccountRepository(trx).find(cid, accountId)
 */
export const kyselyBankAccountRepository = (db: Db): BankAccountRepository => ({
  insert: async (row) => {
    await db.insertInto("bank_accounts").values(bankAccountRow(row)).execute()
  },
  find: (companyId, id) => findBankAccount(db, companyId, id),
  listByCompany: (companyId, window) =>
    pageOf(db.selectFrom("bank_accounts").where("company_id", "=", companyId), window, toBankAccount),
  listByOwners: async (ownerType, ownerIds) => {
    if (ownerIds.length === 0) return []
    const rows = await db
      .selectFrom("bank_accounts")
      .selectAll()
      .where("owner_type", "=", ownerType)
      .where("owner_id", "in", [...ownerIds])
      .orderBy("id")
      .execute()
    return rows.map(toBankAccount)
  },
})

export const toProfile = (row: Selectable<PaymentProfilesTable>): PaymentProfileRecord => ({
  ...row,
  status: row.status as ProfileStatus,
  usage_type: row.usage_type as UsageType,
})

const findProfile = scopedFind("payment_profiles", "company_id", paymentProfileColumns, toProfile)

/** The profiles of one payment, which every payment answer shows: compiled once (see preparedQuery). */
const findProfilePair = preparedQuery(
  (db: Db, p: { readonly companyId: CompanyId; readonly first: PaymentProfileId; readonly second: PaymentProfileId }) =>
    db
      .selectFrom("payment_profiles")
      .select(paymentProfileColumns)
      .where("company_id", "=", p.companyId)
      .where("id", "in", [p.first, p.second])
      .orderBy("id"),
)

/** The read of quotes and payments on their hot path, compiled once (see preparedQuery). */
const findProfilePairInUse = preparedQuery(
  (db: Db, p: { readonly companyId: CompanyId; readonly first: PaymentProfileId; readonly second: PaymentProfileId }) =>
    db
      .selectFrom("payment_profiles as p")
      .innerJoin("bank_accounts as b", "b.id", "p.bank_account_id")
      .leftJoin("entities as e", (join) =>
        join
          .onRef("e.id", "=", "b.owner_id")
          .onRef("e.company_id", "=", "b.company_id")
          .on("b.owner_type", "=", "Entity")
          .on("e.deleted_at", "is", null),
      )
      .leftJoin("recipients as r", (join) =>
        join
          .onRef("r.id", "=", "b.owner_id")
          .onRef("r.company_id", "=", "b.company_id")
          .on("b.owner_type", "=", "Counterparty")
          .on("r.deleted_at", "is", null),
      )
      .select(paymentProfileColumns.map((column) => `p.${column}` as const))
      .select([
        "b.owner_type",
        "b.owner_id",
        "b.provider_connection_id",
        "b.provider_beneficiary_id",
        "e.id as live_entity_id",
        "e.payment_integration_active",
        "r.id as live_recipient_id",
      ])
      .where("p.company_id", "=", p.companyId)
      .where("p.id", "in", [p.first, p.second]),
)

const toProfileInUse = ({
  owner_type,
  owner_id,
  provider_connection_id,
  provider_beneficiary_id,
  live_entity_id,
  payment_integration_active,
  live_recipient_id,
  ...profile
}: Awaited<ReturnType<typeof findProfilePairInUse>>[number]): ProfileInUse => ({
  profile: toProfile(profile),
  ...bankAccountOwner(owner_type, owner_id),
  provider_connection_id,
  provider_beneficiary_id,
  owner_live: live_entity_id !== null || live_recipient_id !== null,
  integration_active: Boolean(payment_integration_active),
})

/**
 * Payment profiles over one Kysely handle, each scoped by its company.
 *
 * @example
 * declare const profileIds: PaymentProfileId[]
 * const profiles = await kyselyPaymentProfileRepository(trx).findMany(cid, profileIds)
 */
export const kyselyPaymentProfileRepository = (db: Db): PaymentProfileRepository => ({
  insert: async (row) => {
    await db.insertInto("payment_profiles").values(row).execute()
  },
  find: (companyId, id) => findProfile(db, companyId, id),
  findMany: async (companyId, ids) => {
    if (ids.length === 0) return []
    if (ids.length <= 2) {
      return (await findProfilePair(db, { companyId, first: ids[0]!, second: ids[1] ?? ids[0]! })).map(toProfile)
    }
    const rows = await db
      .selectFrom("payment_profiles")
      .select(paymentProfileColumns)
      .where("company_id", "=", companyId)
      .where("id", "in", [...ids])
      .orderBy("id")
      .execute()
    return rows.map(toProfile)
  },
  findInUse: async (companyId, ids) => {
    const found: ProfileInUse[] = []
    // Two ids a query: quotes and payments ask for their two profiles, the job for one.
    for (let i = 0; i < ids.length; i += 2) {
      const pair = { companyId, first: ids[i]!, second: ids[i + 1] ?? ids[i]! }
      for (const row of await findProfilePairInUse(db, pair)) found.push(toProfileInUse(row))
    }
    return found
  },
  listByBankAccounts: async (bankAccountIds) => {
    if (bankAccountIds.length === 0) return []
    const rows = await db
      .selectFrom("payment_profiles")
      .selectAll()
      .where("bank_account_id", "in", [...bankAccountIds])
      .orderBy("id")
      .execute()
    return rows.map(toProfile)
  },
  compareAndSetStatus: async (companyId, id, from, to, updatedAt) => {
    const row = await db
      .updateTable("payment_profiles")
      .set({ status: to, updated_at: updatedAt })
      .where("company_id", "=", companyId)
      .where("id", "=", id)
      .where("status", "=", from)
      .returning(paymentProfileColumns)
      .executeTakeFirst()
    return row === undefined ? undefined : toProfile(row)
  },
})

/**
 * Funding mandates over one Kysely handle, one per bank account (its primary key).
 *
 * @example
 * declare const accountId: BankAccountId
 * const mandates = await kyselyFundingMandateRepository(trx).listByBankAccounts(companyId, [accountId])
 */
export const kyselyFundingMandateRepository = (db: Db): FundingMandateRepository => ({
  insert: async (row) => {
    await db.insertInto("funding_mandates").values(row).execute()
  },
  listByBankAccounts: async (companyId, ids) =>
    ids.length === 0
      ? []
      : db
          .selectFrom("funding_mandates")
          .selectAll()
          .where("company_id", "=", companyId)
          .where("bank_account_id", "in", ids)
          .orderBy("bank_account_id")
          .execute(),
})
