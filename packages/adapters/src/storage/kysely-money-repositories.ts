import type {
  BankAccountRecord,
  EventRecord,
  OwnerType,
  PaymentProfileRecord,
  PaymentRecord,
  PaymentStatusValue,
  ProfileInUse,
  ProfileStatus,
  QuoteRecord,
  Repositories,
  Slice,
  UsageType,
  Window,
} from "@payments-engine/core"
import { type Kysely, type Selectable, sql } from "kysely"
import type { RepositoryFactories } from "./lazy-repositories.ts"
import { preparedQuery } from "./prepared-query.ts"
import type { BankAccountsTable, PaymentProfilesTable, PaymentsTable, StorageTables } from "./storage-tables.ts"
import { paymentColumns, paymentProfileColumns, quoteColumns } from "./table-columns.ts"

type MoneyRepositories = Pick<Repositories, "bankAccounts" | "paymentProfiles" | "quotes" | "payments" | "events">

type Db = Kysely<StorageTables>

const countOf = (row: { readonly total: string | number | bigint } | undefined): number => Number(row?.total ?? 0)

const toBankAccount = (row: Selectable<BankAccountsTable>): BankAccountRecord => ({
  ...row,
  owner_type: row.owner_type as OwnerType,
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

const toProfile = (row: Selectable<PaymentProfilesTable>): PaymentProfileRecord => ({
  ...row,
  status: row.status as ProfileStatus,
  usage_type: row.usage_type as UsageType,
})

const toPayment = (row: Selectable<PaymentsTable>): PaymentRecord => ({
  ...row,
  status: row.status as PaymentStatusValue,
  machine_version: Number(row.machine_version),
})

/** Rows of a window of a query, with the total; no row query past the end. */
const slice = async <T>(
  count: () => Promise<{ total: string | number | bigint } | undefined>,
  rows: (offset: number, limit: number) => Promise<ReadonlyArray<T>>,
  window: Window,
): Promise<Slice<T>> => {
  const total = countOf(await count())
  if (window.limit === 0 || window.offset >= total) return { rows: [], total }
  return { rows: await rows(window.offset, window.limit), total }
}

// The queries of creating a quote and a payment, compiled once (see preparedQuery).

const findProfilePairInUse = preparedQuery(
  (db: Db, p: { readonly companyId: string; readonly first: string; readonly second: string }) =>
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
  owner_type: owner_type as OwnerType,
  owner_id,
  provider_connection_id,
  provider_beneficiary_id,
  owner_live: live_entity_id !== null || live_recipient_id !== null,
  integration_active: Boolean(payment_integration_active),
})

const insertQuote = preparedQuery((db: Db, row: QuoteRecord) => db.insertInto("quotes").values(row))

const findQuote = preparedQuery((db: Db, p: { readonly companyId: string; readonly id: string }) =>
  db.selectFrom("quotes").select(quoteColumns).where("company_id", "=", p.companyId).where("id", "=", p.id),
)

/** Both unique constraints (quote; company and key) decide at once; DO NOTHING leaves the transaction usable. */
const insertPaymentIfNew = preparedQuery((db: Db, row: PaymentRecord) =>
  db
    .insertInto("payments")
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returning("id"),
)

const findPaymentByKey = preparedQuery((db: Db, p: { readonly companyId: string; readonly key: string }) =>
  db
    .selectFrom("payments")
    .select(paymentColumns)
    .where("company_id", "=", p.companyId)
    .where("idempotency_key", "=", p.key),
)

/**
 * The money-movement repositories, one factory each over a Kysely handle (`kyselyRepositories`
 * builds each when a transaction first uses it). Conditional writes (`insertIfNew`,
 * `compareAndSetStatus`, `claimDue`) decide in one statement and read their outcome from
 * `RETURNING`, so they hold between concurrent transactions on Postgres.
 */
export const kyselyMoneyRepositoryFactories: RepositoryFactories<MoneyRepositories> = {
  bankAccounts: (db) => ({
    insert: async (row) => {
      await db.insertInto("bank_accounts").values(bankAccountRow(row)).execute()
    },
    find: async (companyId, id) => {
      const row = await db
        .selectFrom("bank_accounts")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .executeTakeFirst()
      return row === undefined ? undefined : toBankAccount(row)
    },
    listByCompany: (companyId, window) => {
      const rows = db.selectFrom("bank_accounts").where("company_id", "=", companyId)
      return slice(
        () => rows.select((eb) => eb.fn.countAll().as("total")).executeTakeFirst(),
        async (offset, limit) =>
          (await rows.selectAll().orderBy("id").limit(limit).offset(offset).execute()).map(toBankAccount),
        window,
      )
    },
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
  }),

  paymentProfiles: (db) => ({
    insert: async (row) => {
      await db.insertInto("payment_profiles").values(row).execute()
    },
    find: async (companyId, id) => {
      const row = await db
        .selectFrom("payment_profiles")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .executeTakeFirst()
      return row === undefined ? undefined : toProfile(row)
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
  }),

  quotes: (db) => ({
    insert: async (row: QuoteRecord) => {
      await insertQuote(db, row)
    },
    find: async (companyId, id) => (await findQuote(db, { companyId, id }))[0] as QuoteRecord | undefined,
  }),

  payments: (db) => ({
    insertIfNew: async (row) => {
      const [inserted] = await insertPaymentIfNew(db, row)
      return inserted === undefined ? "conflict" : "inserted"
    },
    find: async (companyId, id) => {
      const row = await db
        .selectFrom("payments")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .executeTakeFirst()
      return row === undefined ? undefined : toPayment(row)
    },
    findById: async (id) => {
      const row = await db.selectFrom("payments").selectAll().where("id", "=", id).executeTakeFirst()
      return row === undefined ? undefined : toPayment(row)
    },
    findByIdempotencyKey: async (companyId, key) => {
      const [row] = await findPaymentByKey(db, { companyId, key })
      return row === undefined ? undefined : toPayment(row)
    },
    findByQuote: async (quoteId: string) => {
      const row = await db.selectFrom("payments").selectAll().where("quote_id", "=", quoteId).executeTakeFirst()
      return row === undefined ? undefined : toPayment(row)
    },
    list: (companyId, filter, window) => {
      let rows = db.selectFrom("payments").where("company_id", "=", companyId)
      if (filter.status !== undefined) rows = rows.where("status", "=", filter.status)
      if (filter.payment_batch_id !== undefined) rows = rows.where("payment_batch_id", "=", filter.payment_batch_id)
      return slice(
        () => rows.select((eb) => eb.fn.countAll().as("total")).executeTakeFirst(),
        async (offset, limit) =>
          (await rows.selectAll().orderBy("id").limit(limit).offset(offset).execute()).map(toPayment),
        window,
      )
    },
    compareAndSetStatus: async (id, from, to, change) => {
      const row = await db
        .updateTable("payments")
        .set({ ...change, status: to })
        .where("id", "=", id)
        .where("status", "=", from)
        .returningAll()
        .executeTakeFirst()
      return row === undefined ? undefined : toPayment(row)
    },
  }),

  events: (db) => ({
    append: async (row: EventRecord) => {
      await db.insertInto("events").values(row).execute()
    },
  }),
}
