import {
  type Actor,
  brandId,
  type Company,
  type CompanyId,
  type CompanyRecord,
  type EntityRecord,
  type IdOf,
  type IdPrefix,
  type Page,
  type PaymentRecord,
  type RecipientId,
  type RecipientRecord,
  type Slice,
  type Window,
  type WorkspaceId,
} from "@payments-engine/core"
import { expect } from "vitest"
import type { Harness } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import { bankAccountRow, paymentRow } from "./payment-fixtures.ts"
import { counterIds, nextNumber, processTag } from "./test-ports.ts"

/** Rows in each paged list: more than one page of every size tried, and not a multiple of them. */
const rowCount = 5

/**
 * Page sizes read: 0, full pages with rows after them, a page one short of the list, the list
 * exactly, and a page larger than the list.
 */
const limits = [0, 1, 2, rowCount - 1, rowCount, rowCount + 1]

/**
 * Reads the list window by window for every page size and checks exact rows and total: a
 * repository that returns one row too many (or too few) on a full page fails here.
 */
const expectEveryWindow = async <T>(
  list: (window: Window) => Promise<Slice<T>>,
  all: ReadonlyArray<T>,
): Promise<void> => {
  for (const limit of limits) {
    for (let offset = 0; offset <= all.length; offset += Math.max(limit, 1)) {
      const expected = { rows: all.slice(offset, offset + limit), total: all.length }
      expect({ offset, limit, slice: await list({ offset, limit }) }).toEqual({ offset, limit, slice: expected })
    }
  }
  expect(await list({ offset: all.length + 3, limit: 2 })).toEqual({ rows: [], total: all.length })
}

/** Reads an engine list page by page, past the last page: each page exact, each `meta` total right. */
const expectEveryPage = async <T>(
  list: (query: { page: number; per_page: number }) => Promise<Page<T>>,
  all: ReadonlyArray<T>,
  perPage = 2,
): Promise<void> => {
  for (let page = 1; page <= Math.ceil(all.length / perPage) + 1; page += 1) {
    const { data, meta } = await list({ page, per_page: perPage })
    expect({ page, data, total: meta.total_records }).toEqual({
      page,
      data: all.slice((page - 1) * perPage, page * perPage),
      total: all.length,
    })
  }
}

/**
 * Id endings that sort differently by byte (the order the port promises, Postgres's "C"
 * collation) and by a natural-language collation, which ignores case and punctuation first:
 * there "ab" and "a_b" tie and "B" follows "a". SQLite compares bytes, so only a Postgres
 * database with a locale collation shows the difference.
 */
const collatingEndings = ["b", "B", "_b", "a_b", "ab", "aB", "Ab", "a-b", "a0", "Z", "a%b"]

/** Ids of one kind with the endings above, in an order that is neither the byte order nor its reverse. */
const collatingIds = <P extends IdPrefix>(prefix: P): ReadonlyArray<IdOf<P>> => {
  const base = `${prefix}_${processTag}_${String(nextNumber()).padStart(12, "0")}_`
  return collatingEndings.map((ending) => brandId(prefix, `${base}${ending}`))
}

/** JavaScript's default sort compares UTF-16 code units: byte order for these ASCII ids. */
const byteOrder = <T extends { readonly id: string }>(rows: ReadonlyArray<T>): ReadonlyArray<T> =>
  [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

const companyRow = (workspaceId: WorkspaceId, id: CompanyId, name: string, at: string): CompanyRecord => ({
  id,
  workspace_id: workspaceId,
  name,
  country: "US",
  default_currency: "USD",
  role: "api_client",
  created_at: at,
  updated_at: at,
  deleted_at: null,
})

const recipientRow = (companyId: CompanyId, id: RecipientId, name: string, at: string): RecipientRecord => ({
  id,
  company_id: companyId,
  name,
  email: null,
  created_at: at,
  updated_at: at,
  deleted_at: null,
})

/** A workspace and a company in it, for lists scoped to a company. */
const companyFor = async (harness: Harness): Promise<{ actor: Actor; companyId: CompanyId }> => {
  const actor = await harness.workspace()
  const company = await harness.engine.companies.create(actor, {
    name: "Pages Inc",
    country: "US",
    default_currency: "USD",
  })
  return { actor, companyId: company.id }
}

/** Lists read page by page, with rows after every full page, and ids ordered as bytes. */
export const pagingScenarios: ScenarioGroup = {
  title: "full pages and orderings",
  scenarios: [
    {
      id: "paging.companies",
      title: "the company list gives exactly one page of rows, whatever the page size, with the total of the list",
      run: async (harness) => {
        const { engine, storage, clock } = harness
        const actor = await harness.workspace()
        const created: Array<Company> = []
        for (let n = 1; n <= rowCount; n += 1) {
          created.push(
            await engine.companies.create(actor, { name: `Co ${n}`, country: "US", default_currency: "USD" }),
          )
          clock.advance(1000)
        }
        const gone = await engine.companies.create(actor, { name: "Gone", country: "US", default_currency: "USD" })
        await engine.companies.delete(actor, gone.id)
        await expectEveryPage((query) => engine.companies.list(actor, query), created)
        const rows = await storage.transaction(async (tx) => {
          const found = []
          for (const company of created) found.push(await tx.companies.find(actor.workspaceId, company.id))
          return found
        })
        await expectEveryWindow(
          (window) => storage.transaction((tx) => tx.companies.listActive(actor.workspaceId, window)),
          rows,
        )
      },
    },
    {
      id: "paging.entities",
      title: "the entity list gives exactly one page of its one live entity, deleted entities left out",
      run: async (harness) => {
        const { engine, storage, clock } = harness
        const { actor, companyId } = await companyFor(harness)
        for (const name of ["First", "Second"]) {
          const entity = await engine.entities.create(actor, companyId, { name, country_alpha2: "US" })
          clock.advance(1000)
          await engine.entities.delete(actor, companyId, entity.id)
        }
        const live = await engine.entities.create(actor, companyId, { name: "Live", country_alpha2: "US" })
        await expectEveryPage((query) => engine.entities.list(actor, companyId, query), [live], 1)
        const row = await storage.transaction((tx) => tx.entities.findActive(companyId, live.id))
        await expectEveryWindow(
          (window) => storage.transaction((tx) => tx.entities.listActive(companyId, window)),
          [row as EntityRecord],
        )
      },
    },
    {
      id: "paging.recipients",
      title: "the recipient list gives exactly one page of rows, whatever the page size, with the total of the list",
      run: async (harness) => {
        const { engine, storage, clock } = harness
        const { actor, companyId } = await companyFor(harness)
        const created = []
        for (let n = 1; n <= rowCount; n += 1) {
          created.push(await engine.recipients.create(actor, companyId, { name: `Payee ${n}` }))
          clock.advance(1000)
        }
        const gone = await engine.recipients.create(actor, companyId, { name: "Gone" })
        await engine.recipients.delete(actor, companyId, gone.id)
        await expectEveryPage((query) => engine.recipients.list(actor, companyId, query), created)
        const rows = created.map((r) => recipientRow(companyId, r.id, r.name, r.created_at))
        await expectEveryWindow(
          (window) => storage.transaction((tx) => tx.recipients.listActive(companyId, window)),
          rows,
        )
      },
    },
    {
      id: "paging.bank-accounts",
      title: "the bank account list gives exactly one page of rows, whatever the page size, with the total of the list",
      run: async (harness) => {
        const { storage, clock } = harness
        const { companyId } = await companyFor(harness)
        const ids = counterIds()
        const at = clock.now().toISOString()
        const rows = Array.from({ length: rowCount }, (_, n) =>
          bankAccountRow(
            ids.next("ba"),
            companyId,
            n % 2 === 0
              ? { owner_type: "Counterparty", owner_id: brandId("rcp", "owner") }
              : { owner_type: "Entity", owner_id: brandId("ent", "owner") },
            at,
          ),
        )
        await storage.transaction(async (tx) => {
          for (const row of rows) await tx.bankAccounts.insert(row)
          await tx.bankAccounts.insert(
            bankAccountRow(
              ids.next("ba"),
              brandId("cmp", "cmp_elsewhere"),
              { owner_type: "Entity", owner_id: brandId("ent", "x") },
              at,
            ),
          )
        })
        await expectEveryWindow(
          (window) => storage.transaction((tx) => tx.bankAccounts.listByCompany(companyId, window)),
          rows,
        )
      },
    },
    {
      id: "paging.payments",
      title:
        "the payment list gives exactly one page of rows, whatever the page size and status filter, with the total of the list",
      run: async (harness) => {
        const { storage, clock } = harness
        const { companyId } = await companyFor(harness)
        const ids = counterIds()
        const at = clock.now().toISOString()
        const rows: Array<PaymentRecord> = []
        for (let n = 0; n < rowCount * 2; n += 1) {
          const id = ids.next("pay")
          const row = paymentRow(id, companyId, brandId("qt", `qt_${id}`), `key-${n}`, at)
          rows.push(n % 2 === 0 ? row : { ...row, status: "completed", provider_payment_id: `pp_${id}` })
        }
        await storage.transaction(async (tx) => {
          for (const row of rows) expect(await tx.payments.insertIfNew(row)).toBe("inserted")
        })
        const list = (filter: { status?: "pending" | "completed" }) => (window: Window) =>
          storage.transaction((tx) => tx.payments.list(companyId, filter, window))
        await expectEveryWindow(list({}), rows)
        await expectEveryWindow(
          list({ status: "pending" }),
          rows.filter((row) => row.status === "pending"),
        )
        await expectEveryWindow(
          list({ status: "completed" }),
          rows.filter((row) => row.status === "completed"),
        )
      },
    },
    {
      id: "paging.id-order",
      title:
        "lists are in byte order of their ids (mixed case, `_`, `-`, `%`), as Postgres's C collation orders them, not a language's",
      run: async (harness) => {
        const { engine, storage, clock } = harness
        const at = clock.now().toISOString()
        const actor = await harness.workspace()
        const companies = collatingIds("cmp").map((id, n) =>
          companyRow(actor.workspaceId, id, `Co ${collatingEndings[n]}`, at),
        )
        const host = companies[0]!
        const recipients = collatingIds("rcp").map((id) => recipientRow(host.id, id, `Payee ${id}`, at))
        const accounts = collatingIds("ba").map((id) =>
          bankAccountRow(id, host.id, { owner_type: "Entity", owner_id: brandId("ent", "owner") }, at),
        )
        const payments = collatingIds("pay").map((id) => paymentRow(id, host.id, brandId("qt", `qt_${id}`), id, at))
        await storage.transaction(async (tx) => {
          for (const row of companies) await tx.companies.insert(row)
          for (const row of recipients) await tx.recipients.insert(row)
          for (const row of accounts) await tx.bankAccounts.insert(row)
          for (const row of payments) await tx.payments.insertIfNew(row)
        })
        const everything = { offset: 0, limit: 100 }
        const read = await storage.transaction(async (tx) => ({
          companies: (await tx.companies.listActive(actor.workspaceId, everything)).rows.map((row) => row.id),
          recipients: (await tx.recipients.listActive(host.id, everything)).rows.map((row) => row.id),
          accounts: (await tx.bankAccounts.listByCompany(host.id, everything)).rows.map((row) => row.id),
          payments: (await tx.payments.list(host.id, {}, everything)).rows.map((row) => row.id),
          window: (await tx.companies.listActive(actor.workspaceId, { offset: 3, limit: 4 })).rows.map((row) => row.id),
        }))
        const ids = (rows: ReadonlyArray<{ readonly id: string }>) => byteOrder(rows).map((row) => row.id)
        expect(read).toEqual({
          companies: ids(companies),
          recipients: ids(recipients),
          accounts: ids(accounts),
          payments: ids(payments),
          window: ids(companies).slice(3, 7),
        })
        const listed = await engine.companies.list(actor, { per_page: 100 })
        expect(listed.data.map((company) => company.id)).toEqual(ids(companies))
        const payees = await engine.recipients.list(actor, host.id, { page: 2, per_page: 4 })
        expect(payees.data.map((recipient) => recipient.id)).toEqual(ids(recipients).slice(4, 8))
      },
    },
  ],
}
