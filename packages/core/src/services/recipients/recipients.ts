import { Effect } from "effect"
import { type Forbidden, type Invalid, messages, NotFound } from "../../errors.ts"
import type { CompanyId, RecipientId } from "../../model/ids.ts"
import { type Recipient, RecipientCreate, type RecipientCreateBody, toRecipient } from "../../model/recipient.ts"
import type { RecipientRecord } from "../../ports/storage/index.ts"
import { type Page, type PageQuery, pageOffset, pagePolicies, parsePageRequest, toPage } from "../../rules/paging.ts"
import type { Actor } from "../steps/actor.ts"
import { decodeBody } from "../steps/decode-input.ts"
import { bankAccountsWithProfiles } from "../steps/lookups.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import type { Lifted, ReadRepositories } from "../steps/transaction.ts"
import { inCompany, readInCompany, writeAccess } from "../steps/use-case.ts"

/** Recipients with their bank accounts and profiles, in three queries whatever their number. */
const withBankAccounts = (tx: Lifted<ReadRepositories>, rows: ReadonlyArray<RecipientRecord>) =>
  Effect.gen(function* () {
    if (rows.length === 0) return []
    const accounts = yield* tx.bankAccounts.listByOwners(
      "Counterparty",
      rows.map((r) => r.id),
    )
    const withDetails = yield* bankAccountsWithProfiles(tx, accounts)
    return rows.map((row) => toRecipient(row, withDetails))
  })

const findRecipient = (tx: Lifted<ReadRepositories>, companyId: CompanyId, id: RecipientId) =>
  tx.recipients
    .findActive(companyId, id)
    .pipe(
      Effect.flatMap((row) =>
        row ? Effect.succeed(row) : Effect.fail(new NotFound({ field: "id", message: messages.recipientNotFound })),
      ),
    )

/** Use cases of recipients. A deleted recipient is gone: it cannot be fetched nor listed. */
export const makeRecipients = (ports: ServicePorts) => ({
  create: (
    actor: Actor,
    companyId: CompanyId,
    body: RecipientCreateBody,
  ): Effect.Effect<Recipient, Invalid | Forbidden | NotFound> =>
    Effect.gen(function* () {
      const input = yield* decodeBody(RecipientCreate, body)
      return yield* inCompany(ports, actor, companyId, ({ tx, company, readClock }) =>
        Effect.gen(function* () {
          const now = (yield* readClock).now().toISOString()
          const row: RecipientRecord = {
            id: ports.ids.next("rcp"),
            company_id: company.id,
            name: input.name,
            email: input.email ?? null,
            created_at: now,
            updated_at: now,
            deleted_at: null,
          }
          yield* tx.recipients.insert(row)
          return toRecipient(row)
        }),
      )
    }).pipe(writeAccess(actor)),

  get: (actor: Actor, companyId: CompanyId, id: RecipientId): Effect.Effect<Recipient, NotFound> =>
    readInCompany(ports, actor, companyId, ({ tx, company }) =>
      findRecipient(tx, company.id, id).pipe(
        Effect.flatMap((row) => withBankAccounts(tx, [row])),
        Effect.map(([recipient]) => recipient!),
      ),
    ),

  delete: (actor: Actor, companyId: CompanyId, id: RecipientId): Effect.Effect<void, Forbidden | NotFound> =>
    Effect.gen(function* () {
      yield* inCompany(ports, actor, companyId, ({ tx, company, readClock }) =>
        Effect.gen(function* () {
          const current = yield* findRecipient(tx, company.id, id)
          const now = (yield* readClock).now().toISOString()
          yield* tx.recipients.update({ ...current, updated_at: now, deleted_at: now })
        }),
      )
    }).pipe(writeAccess(actor)),

  list: (
    actor: Actor,
    companyId: CompanyId,
    query: PageQuery = {},
  ): Effect.Effect<Page<Recipient>, Invalid | NotFound> =>
    Effect.gen(function* () {
      const request = yield* parsePageRequest(query, pagePolicies.recipients)
      return yield* readInCompany(ports, actor, companyId, ({ tx, company }) =>
        Effect.gen(function* () {
          const slice = yield* tx.recipients.listActive(company.id, {
            offset: pageOffset(request),
            limit: request.perPage,
          })
          return toPage(yield* withBankAccounts(tx, slice.rows), slice.total, request)
        }),
      )
    }),
})

export type Recipients = ReturnType<typeof makeRecipients>
