import type {
  CompanyId,
  PaymentBatchId,
  PaymentId,
  PaymentRecord,
  PaymentRepository,
  PaymentStatusValue,
} from "@payments-engine/core"
import { type Kysely, type Selectable, sql } from "kysely"
import { andThen } from "../awaitable.ts"
import { definedFields, listOf, listValues, preparedQuery } from "../prepared-query.ts"
import type { PaymentsTable, StorageTables } from "../storage-tables.ts"
import { paymentColumns } from "../table-columns.ts"
import { anyTables } from "./kysely-any.ts"
import { pageOf } from "./paging.ts"
import { joinedQuoteColumns, joinProfilesInUse, splitJoinedRows } from "./profiles-in-use.ts"
import { scopedFind } from "./scoped-find.ts"

type Db = Kysely<StorageTables>

const toPayment = (row: Selectable<PaymentsTable>): PaymentRecord => ({
  ...row,
  status: row.status as PaymentStatusValue,
  machine_version: Number(row.machine_version),
})

// Creating a payment runs these: compiled once (see preparedQuery).

/** Both unique constraints (quote; company and key) decide at once; DO NOTHING leaves the transaction usable. */
const insertPaymentIfNew = preparedQuery((db: Db, row: PaymentRecord) =>
  db
    .insertInto("payments")
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returning("id"),
)

const findPaymentByKey = preparedQuery((db: Db, p: { readonly companyId: CompanyId; readonly key: string }) =>
  db
    .selectFrom("payments")
    .select(paymentColumns)
    .where("company_id", "=", p.companyId)
    .where("idempotency_key", "=", p.key),
)

const findById = preparedQuery((db: Db, p: { readonly id: PaymentId }) =>
  db.selectFrom("payments").select(paymentColumns).where("id", "=", p.id),
)

// An execution job reads its payment with its quote and profiles in one go (see preparedQuery).
const findForExecution = preparedQuery(
  (db: Db, p: { readonly id: PaymentId }) =>
    joinProfilesInUse(
      anyTables(db)
        .selectFrom("payments as p")
        .leftJoin("quotes as q", (join) =>
          join.onRef("q.id", "=", "p.quote_id").onRef("q.company_id", "=", "p.company_id"),
        )
        .select([...paymentColumns.map((column) => `p.${column}`), ...joinedQuoteColumns])
        .where("p.id", "=", p.id),
      (join) =>
        join
          .onRef("pr.company_id", "=", "p.company_id")
          .on((eb) =>
            eb.or([eb("pr.id", "=", eb.ref("p.from_profile_id")), eb("pr.id", "=", eb.ref("p.to_profile_id"))]),
          ),
    ),
  { arrays: true },
)

// Executing a batch's payments runs these: compiled once (per shape of change, per length of list).

type Values = Record<string, string | null>

/** Moves a payment from `from` to `status` with the change's fields; `lastUpdate` when given must match. */
const setStatus = preparedQuery((db: Db, p: Values) => {
  const { id, from, lastUpdate, ...change } = p
  const update = db
    .updateTable("payments")
    .set(change as Partial<PaymentsTable>)
    .where("id", "=", id as PaymentId)
    .where("status", "=", from as PaymentStatusValue)
  return ("lastUpdate" in p ? update.where("updated_at", "=", lastUpdate as string) : update).returningAll()
})

/** Moves the payments `id0`, `id1`, ... still in `from` to `status` with the change's fields. */
const setStatuses = preparedQuery((db: Db, p: Values) => {
  const ids = listOf("id", p) as PaymentId[]
  const change = Object.fromEntries(Object.entries(p).filter(([name]) => !/^id\d+$/.test(name) && name !== "from"))
  return db
    .updateTable("payments")
    .set(change as Partial<PaymentsTable>)
    .where("id", "in", ids)
    .where("status", "=", p.from as PaymentStatusValue)
    .returningAll()
})

const findInBatch = preparedQuery((db: Db, p: Values) =>
  db
    .selectFrom("payments")
    .selectAll()
    .where("payment_batch_id", "=", p.batchId as PaymentBatchId)
    .where("id", "in", listOf("id", p) as PaymentId[])
    .orderBy("id"),
)

const listInBatch = preparedQuery(
  (db: Db, p: { readonly batchId: string; readonly status?: string; readonly limit: number }) => {
    const rows = db
      .selectFrom("payments")
      .selectAll()
      .where("payment_batch_id", "=", p.batchId as PaymentBatchId)
    return ("status" in p ? rows.where("status", "=", p.status as PaymentStatusValue) : rows)
      .orderBy("id")
      .limit(p.limit)
  },
)

// RETURNING gives rows in no promised order.
const byId = (a: PaymentRecord, b: PaymentRecord) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

const findPayment = scopedFind("payments", "company_id", paymentColumns, toPayment)

/**
 * Payments over one Kysely handle. `insertIfNew` and `compareAndSetStatus` decide in one
 * statement and read their outcome from `RETURNING`, so they hold between concurrent
 * transactions on Postgres.
 *
 * @example
 * declare const paymentId: PaymentId
 * const payment = await kyselyPaymentRepository(trx).find(cid, paymentId)
 */
export const kyselyPaymentRepository = (db: Db): PaymentRepository => ({
  insertIfNew: (row) =>
    andThen(insertPaymentIfNew(db, row), ([inserted]) => (inserted === undefined ? "conflict" : "inserted")),
  find: (companyId, id) => findPayment(db, companyId, id),
  anyFromProfiles: async (companyId, fromProfileIds, statuses) => {
    if (fromProfileIds.length === 0 || statuses.length === 0) return false
    const row = await db
      .selectFrom("payments")
      .select("id")
      .where("company_id", "=", companyId)
      .where("from_profile_id", "in", [...fromProfileIds])
      .where("status", "in", [...statuses])
      .limit(1)
      .executeTakeFirst()
    return row !== undefined
  },
  findById: async (id) => {
    const [row] = await findById(db, { id })
    return row === undefined ? undefined : toPayment(row)
  },
  findForExecution: (id) =>
    andThen(findForExecution(db, { id }), (rows) => {
      const { own, quote, profiles } = splitJoinedRows(rows, paymentColumns, true)
      return own === undefined ? undefined : { payment: toPayment(own as Selectable<PaymentsTable>), quote, profiles }
    }),
  findByIdempotencyKey: async (companyId, key) => {
    const [row] = await findPaymentByKey(db, { companyId, key })
    return row === undefined ? undefined : toPayment(row)
  },
  list: (companyId, filter, window) => {
    let rows = db.selectFrom("payments").where("company_id", "=", companyId)
    if (filter.status !== undefined) rows = rows.where("status", "=", filter.status)
    if (filter.payment_batch_id !== undefined) rows = rows.where("payment_batch_id", "=", filter.payment_batch_id)
    return pageOf(rows, window, toPayment)
  },
  compareAndSetStatus: async (id, from, to, change, lastUpdate) => {
    const values = { ...definedFields(change), status: to, id, from }
    const [row] = await setStatus(db, lastUpdate === undefined ? values : { ...values, lastUpdate })
    return row === undefined ? undefined : toPayment(row)
  },
  compareAndSetStatuses: async (ids, from, to, change) => {
    if (ids.length === 0) return []
    const rows = await setStatuses(db, { ...definedFields(change), status: to, from, ...listValues("id", ids) })
    return rows.map(toPayment).sort(byId)
  },
  findInBatch: async (batchId, ids) => {
    if (ids.length === 0) return []
    return (await findInBatch(db, { batchId, ...listValues("id", ids) })).map(toPayment)
  },
  listInBatch: async (batchId, limit, status) =>
    (await listInBatch(db, status === undefined ? { batchId, limit } : { batchId, status, limit })).map(toPayment),
  replaceQuote: async (id, from, to, updatedAt) => {
    const row = await db
      .updateTable("payments")
      .set({ quote_id: to, updated_at: updatedAt })
      .where("id", "=", id)
      .where("quote_id", "=", from)
      .where("status", "=", "processing")
      .returningAll()
      .executeTakeFirst()
    return row === undefined ? undefined : toPayment(row)
  },
  // The status is written into the SQL, not bound: the partial index of processing payments
  // (migration 0010) serves only a plan that sees the value, and a plan made once for any value
  // (a Postgres named statement's generic plan) does not.
  listStuck: async (before, limit) => {
    const rows = await db
      .selectFrom("payments")
      .innerJoin("companies", "companies.id", "payments.company_id")
      .selectAll("payments")
      .select("companies.workspace_id")
      .where(sql<boolean>`payments.status = 'processing'`)
      .where("payments.updated_at", "<", before)
      .orderBy("payments.updated_at")
      .orderBy("payments.id")
      .limit(limit)
      .execute()
    return rows.map(({ workspace_id, ...row }) => ({ ...toPayment(row), workspace_id }))
  },
})
