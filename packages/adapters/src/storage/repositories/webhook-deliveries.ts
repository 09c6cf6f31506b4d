import type {
  Awaitable,
  LaneStart,
  WebhookDeliveryChange,
  WebhookDeliveryId,
  WebhookDeliveryRecord,
  WebhookDeliveryRepository,
  WebhookDeliveryStateValue,
  WebhookEndpointId,
} from "@payments-engine/core"
import { type Kysely, type Selectable, sql } from "kysely"
import { andThen, isThenable } from "../awaitable.ts"
import { definedFields, preparedQuery } from "../prepared-query.ts"
import type { StorageDialect } from "../storage-dialect.ts"
import type { StorageTables, WebhookDeliveriesTable, WebhookEndpointsTable } from "../storage-tables.ts"
import { webhookDeliveryColumns, webhookEndpointColumns } from "../table-columns.ts"
import { aliasedColumns, recordOf } from "./joined-columns.ts"
import { pageOf } from "./paging.ts"
import { toWebhookEndpoint } from "./webhook-endpoints.ts"

type Db = Kysely<StorageTables>

const toDelivery = (row: Selectable<WebhookDeliveriesTable>): WebhookDeliveryRecord => ({
  ...row,
  status: row.status as WebhookDeliveryStateValue,
  machine_version: Number(row.machine_version),
  attempt_count: Number(row.attempt_count),
  last_status_code: row.last_status_code === null ? null : Number(row.last_status_code),
})

const compareAndSetQuery = preparedQuery((db: Db, p: Record<string, string | number | null>) => {
  const { id, fromStatus, fromCount, ...change } = p
  return db
    .updateTable("webhook_deliveries")
    .set(change as Partial<WebhookDeliveriesTable>)
    .where("id", "=", id as WebhookDeliveryId)
    .where("status", "=", fromStatus as WebhookDeliveryStateValue)
    .where("attempt_count", "=", fromCount as number)
    .returningAll()
})

/**
 * One delivery's `compareAndSet`: one `UPDATE ... WHERE status = ? AND attempt_count = ?`,
 * compiled once (see `preparedQuery`): a lane of 50 on SQLite writes 50 of them.
 */
const compareAndSet = (
  db: Db,
  id: WebhookDeliveryId,
  from: Pick<WebhookDeliveryRecord, "status" | "attempt_count">,
  change: WebhookDeliveryChange,
): Awaitable<WebhookDeliveryRecord | undefined> =>
  andThen(
    compareAndSetQuery(db, { ...definedFields(change), id, fromStatus: from.status, fromCount: from.attempt_count }),
    ([row]) => (row === undefined ? undefined : toDelivery(row as Selectable<WebhookDeliveriesTable>)),
  )

/**
 * A lane's take in one statement, where the database locks rows and updates in a CTE (Postgres),
 * compiled once and run as a named statement: the first delivery if free, the first `size - 1` of
 * the due ones and what the lane already holds among them (locked, passing over rows another lane
 * holds), and the update of them all. It was three round trips (the first, the due ones, the rest
 * taken). Its columns are named, not `*`, as every named statement's (see `table-columns.ts`).
 */
const takeLaneQuery = preparedQuery(
  (
    db: Db,
    p: { laneId: WebhookDeliveryId; endpointId: WebhookEndpointId; now: string; size: number; reach: number },
  ) => ({
    compile: () =>
      sql<Selectable<WebhookDeliveriesTable>>`with head as (
          select id from webhook_deliveries
          where id = ${p.laneId} and status = 'pending' and (lane_id is null or lane_id = ${p.laneId})
        ), due as (
          select id, lane_id, next_attempt_at from webhook_deliveries
          where endpoint_id = ${p.endpointId} and status = 'pending' and next_attempt_at <= ${p.now}
            and id <> ${p.laneId} and (lane_id is null or lane_id = ${p.laneId})
          order by next_attempt_at, id
          limit ${p.reach}::integer
          for update skip locked
        ), wanted as (
          select id from head
          union all
          select id from (
            select id, lane_id, row_number() over (order by next_attempt_at, id) as position from due
          ) as ranked
          where (position < ${p.size}::integer or lane_id = ${p.laneId}) and exists (select from head)
        ), taken as (
          update webhook_deliveries as d set lane_id = ${p.laneId} from wanted where d.id = wanted.id
          returning ${sql.join(webhookDeliveryColumns.map((column) => sql.ref(`d.${column}`)))}
        )
        select ${sql.join(webhookDeliveryColumns.map((column) => sql.ref(column)))} from taken
        order by id = ${p.laneId} desc, next_attempt_at, id`.compile(db),
  }),
)

/** Lane `laneId` takes those of `ids` that are pending and free or its own: the ones it took, as they now are, in no set order. */
const takeIntoLane = async (db: Db, laneId: WebhookDeliveryId, ids: ReadonlyArray<WebhookDeliveryId>) => {
  if (ids.length === 0) return []
  const rows = await db
    .updateTable("webhook_deliveries")
    .set({ lane_id: laneId })
    .where("id", "in", ids)
    .where("status", "=", "pending")
    .where((eb) => eb.or([eb("lane_id", "is", null), eb("lane_id", "=", laneId)]))
    .returningAll()
    .execute()
  return rows.map(toDelivery)
}

/** {@link aliasedColumns} as a select list of raw SQL. */
const aliased = (alias: string, columns: ReadonlyArray<string>) => sql.raw(aliasedColumns(alias, columns).join(", "))

/**
 * A lane's start in one read, compiled once, rows as arrays: the delivery (held for the
 * transaction where rows are locked: `locked`), its live endpoint, and how many lanes its
 * workspace has sending. It was three statements (the delivery, the endpoint, the lanes).
 */
const laneStartQuery = (locked: boolean) =>
  preparedQuery(
    (db: Db, p: { id: WebhookDeliveryId }) => ({
      compile: () =>
        sql`select ${aliased("d", webhookDeliveryColumns)}, ${aliased("e", webhookEndpointColumns)},
            (select count(distinct w.lane_id) from webhook_deliveries as w
              where w.workspace_id = d.workspace_id and w.lane_id is not null and w.status = 'pending') as lanes
          from webhook_deliveries as d
          left join webhook_endpoints as e
            on e.workspace_id = d.workspace_id and e.id = d.endpoint_id and e.deleted_at is null
          where d.id = ${p.id}${locked ? sql` for update of d` : sql``}`.compile(db),
    }),
    { arrays: true },
  )
const findLaneStartLocked = laneStartQuery(true)
const findLaneStart = laneStartQuery(false)

/** A row of {@link laneStartQuery} as the port gives it. */
const laneStartOf = (row: ReadonlyArray<unknown>): LaneStart => {
  const endpointFrom = webhookDeliveryColumns.length
  const lanesAt = endpointFrom + webhookEndpointColumns.length
  return {
    delivery: toDelivery(recordOf(webhookDeliveryColumns, row, 0) as Selectable<WebhookDeliveriesTable>),
    endpoint:
      row[endpointFrom] === null
        ? undefined
        : toWebhookEndpoint(recordOf(webhookEndpointColumns, row, endpointFrom) as Selectable<WebhookEndpointsTable>),
    workspaceLanes: Number(row[lanesAt]),
  }
}

/** The repository's `listDue`, which `takeLane` reads too where rows are not locked. */
const listDue = async (
  db: Db,
  dialect: StorageDialect,
  endpointId: WebhookEndpointId,
  now: string,
  laneId: WebhookDeliveryId,
  limit: number,
) => {
  const query = db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("endpoint_id", "=", endpointId)
    // The literal, not a parameter: it is what lets SQLite use the partial index of pending deliveries.
    .where(sql<boolean>`status = 'pending'`)
    .where("next_attempt_at", "<=", now)
    .where("id", "!=", laneId)
    .where((eb) => eb.or([eb("lane_id", "is", null), eb("lane_id", "=", laneId)]))
    .orderBy("next_attempt_at")
    .orderBy("id")
    .limit(limit)
  // Rows another lane holds in its transaction (its head, or ones it is taking) are passed over.
  return (await (dialect.supportsRowLocks ? query.forUpdate().skipLocked() : query).execute()).map(toDelivery)
}

/**
 * Webhook deliveries over one Kysely handle. `insertIfNew` leaves the unique index of endpoint
 * and event to decide (DO NOTHING keeps a Postgres transaction usable); `compareAndSet` decides in
 * one `UPDATE ... WHERE status = ? AND attempt_count = ?`, as `takeLane` does on `lane_id`.
 * Where the dialect locks rows (`supportsRowLocks`), lanes run their transactions at once and
 * hold what they read; where it runs one writer at a time, the reads need no lock.
 *
 * @example
 * declare const deliveryId: WebhookDeliveryId
 * const delivery = await kyselyWebhookDeliveryRepository(trx, postgresDialect).findById(deliveryId)
 */
export const kyselyWebhookDeliveryRepository = (db: Db, dialect: StorageDialect): WebhookDeliveryRepository => ({
  insertIfNew: async (row) => {
    const inserted = await db
      .insertInto("webhook_deliveries")
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returning("id")
      .executeTakeFirst()
    return inserted !== undefined
  },
  findById: async (id) => {
    const row = await db.selectFrom("webhook_deliveries").selectAll().where("id", "=", id).executeTakeFirst()
    return row === undefined ? undefined : toDelivery(row)
  },
  findForLane: (id) =>
    andThen((dialect.supportsRowLocks ? findLaneStartLocked : findLaneStart)(db, { id }), ([row]) =>
      row === undefined ? undefined : laneStartOf(row),
    ),
  find: async (workspaceId, id) => {
    const row = await db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .executeTakeFirst()
    return row === undefined ? undefined : toDelivery(row)
  },
  listByEndpoint: (workspaceId, endpointId, window) =>
    pageOf(
      db.selectFrom("webhook_deliveries").where("workspace_id", "=", workspaceId).where("endpoint_id", "=", endpointId),
      window,
      toDelivery,
      "newest",
    ),
  listDue: (endpointId, now, laneId, limit) => listDue(db, dialect, endpointId, now, laneId, limit),
  listFailed: async (endpointId, window, afterId, limit) => {
    let query = db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("endpoint_id", "=", endpointId)
      // The literal, as for pending ones: what lets SQLite use the partial index of failed deliveries.
      .where(sql<boolean>`status = 'failed'`)
      .where("created_at", ">=", window.createdFrom)
      .where("created_at", "<", window.createdBefore)
    if (afterId !== null) query = query.where("id", ">", afterId)
    return (await query.orderBy("id").limit(limit).execute()).map(toDelivery)
  },
  takeLane: async (laneId, endpointId, now, { size, reach }) => {
    if (dialect.supportsRowLocks && dialect.supportsWritingCte) {
      return (await takeLaneQuery(db, { laneId, endpointId, now, size, reach })).map((row) =>
        toDelivery(row as Selectable<WebhookDeliveriesTable>),
      )
    }
    // Nothing moves between these statements: the due ones listed are locked where rows can be,
    // and where they cannot, one writer runs at a time.
    const [head] = await takeIntoLane(db, laneId, [laneId])
    if (head === undefined) return []
    const wanted = (await listDue(db, dialect, endpointId, now, laneId, reach))
      .filter((row, i) => i < size - 1 || row.lane_id === laneId)
      .map((row) => row.id)
    const taken = new Map((await takeIntoLane(db, laneId, wanted)).map((row) => [row.id, row]))
    return [head, ...wanted.flatMap((id) => taken.get(id) ?? [])]
  },
  compareAndSetMany: (moves) => {
    if (moves.length === 0) return []
    if (!dialect.supportsUpdateFromValues) {
      // One statement each: on SQLite they cost no round trip, and answer at once.
      const moved = moves.map((m) => compareAndSet(db, m.id, m.from, m.change))
      const written = (rows: ReadonlyArray<WebhookDeliveryRecord | undefined>) =>
        rows.filter((row) => row !== undefined)
      return moved.some(isThenable)
        ? Promise.all(moved).then(written)
        : written(moved as Array<WebhookDeliveryRecord | undefined>)
    }
    const values = sql.join(
      moves.map(
        ({ id, from, change: c }) =>
          sql`(${id}, ${from.status}, ${from.attempt_count}::integer, ${c.status}, ${c.attempt_count}::integer,
            ${c.last_status_code}::integer, ${c.next_attempt_at}, ${c.attempts}, ${c.updated_at}, ${c.lane_id})`,
      ),
    )
    return sql<Selectable<WebhookDeliveriesTable>>`update webhook_deliveries as d
      set status = v.status, attempt_count = v.attempt_count, last_status_code = v.last_status_code,
        next_attempt_at = v.next_attempt_at, attempts = v.attempts, updated_at = v.updated_at, lane_id = v.lane_id
      from (values ${values}) as v(id, from_status, from_count, status, attempt_count, last_status_code,
        next_attempt_at, attempts, updated_at, lane_id)
      where d.id = v.id and d.status = v.from_status and d.attempt_count = v.from_count
      returning d.*`
      .execute(db)
      .then(({ rows }) => rows.map(toDelivery))
  },
  compareAndSet: (id, from, change) => compareAndSet(db, id, from, change),
})
