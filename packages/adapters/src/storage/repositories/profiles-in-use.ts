import type { ProfileInUse, QuoteRecord } from "@payments-engine/core"
import { bankAccountOwner } from "@payments-engine/core/effect"
import type { Selectable, SelectQueryBuilder } from "kysely"
import type { PaymentProfilesTable } from "../storage-tables.ts"
import { paymentProfileColumns, quoteColumns } from "../table-columns.ts"
import { toProfile } from "./bank-accounts.ts"
import { aliasedColumns, recordOf } from "./joined-columns.ts"
import type { AnyTables } from "./kysely-any.ts"

/*
 * A payment's or a quote's profiles as `paymentProfiles.findInUse` reads them, joined to the row
 * a hot statement reads anyway (the company, the quote, the payment): one round trip for both.
 * The profile's columns are named `pr__<column>`, its account's and its live owner's `po__`, so
 * they never meet the other row's; the rows come as arrays, split by position.
 */

/** The join's profile, by the alias `pr`. */
type ProfileJoin = Parameters<SelectQueryBuilder<AnyTables, string, object>["leftJoin"]>[1]

/** The owner's columns the join selects after the profile's, by their names in a row. */
const ownerColumns = {
  account_id: "pb.id",
  owner_type: "pb.owner_type",
  owner_id: "pb.owner_id",
  provider_connection_id: "pb.provider_connection_id",
  provider_beneficiary_id: "pb.provider_beneficiary_id",
  entity_id: "pe.id",
  payment_integration_active: "pe.payment_integration_active",
  recipient_id: "pr2.id",
} as const

/** Where each of {@link ownerColumns} is, counted from the first of them. */
const ownerAt = Object.fromEntries(Object.keys(ownerColumns).map((name, i) => [name, i])) as {
  readonly [K in keyof typeof ownerColumns]: number
}

/**
 * `query` with the profiles `on` names (alias `pr`) left-joined, each with its account and its live
 * owner: a row for each profile found, one row with nulls when none is.
 */
export const joinProfilesInUse = (
  query: SelectQueryBuilder<AnyTables, string, object>,
  on: ProfileJoin,
): SelectQueryBuilder<AnyTables, string, object> =>
  query
    .leftJoin("payment_profiles as pr", on)
    .leftJoin("bank_accounts as pb", "pb.id", "pr.bank_account_id")
    .leftJoin("entities as pe", (join) =>
      join
        .onRef("pe.id", "=", "pb.owner_id")
        .onRef("pe.company_id", "=", "pb.company_id")
        .on("pb.owner_type", "=", "Entity")
        .on("pe.deleted_at", "is", null),
    )
    .leftJoin("recipients as pr2", (join) =>
      join
        .onRef("pr2.id", "=", "pb.owner_id")
        .onRef("pr2.company_id", "=", "pb.company_id")
        .on("pb.owner_type", "=", "Counterparty")
        .on("pr2.deleted_at", "is", null),
    )
    .select([
      ...aliasedColumns("pr", paymentProfileColumns),
      ...Object.entries(ownerColumns).map(([name, column]) => `${column} as po__${name}`),
    ])

/** A joined quote's columns beside the row a hot read joins it to (alias `q`), each named `q__<column>`. */
export const joinedQuoteColumns = aliasedColumns("q", quoteColumns)

/** What {@link splitJoinedRows} finds in the rows of a hot read. */
export interface JoinedRows {
  /** The read's own row (the company, the payment), its `own` columns by name; undefined when no row came. */
  readonly own: Record<string, unknown> | undefined
  /** The joined quote, when the read joins one ({@link joinedQuoteColumns}) and found it. */
  readonly quote: QuoteRecord | undefined
  /** The profiles in use; a profile without its account is none, as in `findInUse`. */
  readonly profiles: ReadonlyArray<ProfileInUse>
}

/**
 * The rows of a hot read, as arrays (`preparedQuery`'s `arrays`) in the order of its select list:
 * its `own` columns, then, when `quoted`, {@link joinedQuoteColumns}, then the profile's and its
 * owner's that {@link joinProfilesInUse} adds. A row for each profile found, one with nulls when
 * none is.
 */
export const splitJoinedRows = (
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
  own: ReadonlyArray<string>,
  quoted: boolean,
): JoinedRows => {
  const first = rows[0]
  if (first === undefined) return { own: undefined, quote: undefined, profiles: [] }
  const quoteFrom = own.length
  const profileFrom = quoteFrom + (quoted ? quoteColumns.length : 0)
  const ownerFrom = profileFrom + paymentProfileColumns.length
  const owner = (name: keyof typeof ownerColumns, row: ReadonlyArray<unknown>) => row[ownerFrom + ownerAt[name]]
  const profiles: ProfileInUse[] = []
  for (const row of rows) {
    if (row[profileFrom] === null || owner("account_id", row) === null) continue
    profiles.push({
      profile: toProfile(recordOf(paymentProfileColumns, row, profileFrom) as Selectable<PaymentProfilesTable>),
      ...bankAccountOwner(owner("owner_type", row) as string, owner("owner_id", row) as string),
      provider_connection_id: owner("provider_connection_id", row) as string | null,
      provider_beneficiary_id: owner("provider_beneficiary_id", row) as string | null,
      owner_live: owner("entity_id", row) !== null || owner("recipient_id", row) !== null,
      integration_active: Boolean(owner("payment_integration_active", row)),
    })
  }
  const quote =
    quoted && first[quoteFrom] !== null
      ? (recordOf(quoteColumns, first, quoteFrom) as unknown as QuoteRecord)
      : undefined
  return { own: recordOf(own, first, 0), quote, profiles }
}
