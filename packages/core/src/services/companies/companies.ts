import { Effect } from "effect"
import { Forbidden, type Invalid, messages, type NotFound } from "../../errors.ts"
import {
  type Company,
  CompanyCreate,
  type CompanyCreateBody,
  CompanyUpdate,
  type CompanyUpdateBody,
  toCompany,
} from "../../model/company.ts"
import type { CompanyId } from "../../model/ids.ts"
import type { CompanyCreateOptions } from "../../model/types/company.ts"
import type { CompanyRecord, Repositories } from "../../ports/storage/index.ts"
import { type Page, type PageQuery, pageOffset, pagePolicies, parsePageRequest, toPage } from "../../rules/paging.ts"
import type { Actor } from "../steps/actor.ts"
import { decodeBody } from "../steps/decode-input.ts"
import { companyNotFound, findCompany, findLiveCompany } from "../steps/lookups.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inRead, type Lifted } from "../steps/transaction.ts"
import { inWorkspace, writeAccess } from "../steps/use-case.ts"

const hasActiveIntegration = (tx: Lifted<Repositories>, companyId: CompanyId) =>
  tx.entities.findActiveOfCompany(companyId).pipe(Effect.map((entity) => entity?.payment_integration_active === true))

/** Use cases of companies. */
export const makeCompanies = (ports: ServicePorts) => ({
  create: (
    actor: Actor,
    body: CompanyCreateBody,
    options: CompanyCreateOptions = {},
  ): Effect.Effect<Company, Invalid | Forbidden> =>
    Effect.gen(function* () {
      const input = yield* decodeBody(CompanyCreate, body)
      return yield* inWorkspace(ports, actor, ({ tx, readClock }) =>
        Effect.gen(function* () {
          const now = (yield* readClock).now().toISOString()
          const row: CompanyRecord = {
            id: ports.ids.next("cmp"),
            workspace_id: actor.workspaceId,
            name: input.name,
            country: input.country,
            default_currency: input.default_currency,
            role: options.role ?? "api_client",
            created_at: now,
            updated_at: now,
            deleted_at: null,
          }
          yield* tx.companies.insert(row)
          return toCompany(row)
        }),
      )
    }).pipe(writeAccess(actor)),

  /** Fetches a company by id, also once deleted. */
  get: (actor: Actor, id: CompanyId): Effect.Effect<Company, NotFound> =>
    inRead(ports.storage, (tx) => findCompany(tx, actor, id)).pipe(Effect.map(toCompany)),

  update: (
    actor: Actor,
    id: CompanyId,
    body: CompanyUpdateBody,
  ): Effect.Effect<Company, Invalid | Forbidden | NotFound> =>
    Effect.gen(function* () {
      const input = yield* decodeBody(CompanyUpdate, body)
      return yield* inWorkspace(ports, actor, ({ tx, readClock }) =>
        Effect.gen(function* () {
          const current = yield* findLiveCompany(tx, actor, id).pipe(Effect.mapError(() => companyNotFound()))
          if (yield* hasActiveIntegration(tx, current.id)) {
            return yield* Effect.fail(new Forbidden({ field: "base", message: messages.companyUpdateIntegration }))
          }
          const next: CompanyRecord = {
            ...current,
            ...input,
            updated_at: (yield* readClock).now().toISOString(),
          }
          yield* tx.companies.update(next)
          return toCompany(next)
        }),
      )
    }).pipe(writeAccess(actor)),

  /** Soft-deletes an API-created company; it leaves lists but can still be fetched by id. */
  delete: (actor: Actor, id: CompanyId): Effect.Effect<Company, Forbidden | NotFound> =>
    inWorkspace(ports, actor, ({ tx, readClock }) =>
      Effect.gen(function* () {
        const current = yield* findLiveCompany(tx, actor, id).pipe(Effect.mapError(() => companyNotFound()))
        if (current.role !== "api_client") {
          return yield* Effect.fail(new Forbidden({ field: "base", message: messages.companyNotApiCreated }))
        }
        if (yield* hasActiveIntegration(tx, current.id)) {
          return yield* Effect.fail(new Forbidden({ field: "base", message: messages.companyDeleteIntegration }))
        }
        const now = (yield* readClock).now().toISOString()
        const next: CompanyRecord = { ...current, updated_at: now, deleted_at: now }
        yield* tx.companies.update(next)
        return toCompany(next)
      }),
    ).pipe(writeAccess(actor)),

  /** Companies of the workspace that are not deleted, oldest first. */
  list: (actor: Actor, query: PageQuery = {}): Effect.Effect<Page<Company>, Invalid> =>
    Effect.gen(function* () {
      const request = yield* parsePageRequest(query, pagePolicies.companies)
      const slice = yield* inRead(ports.storage, (tx) =>
        tx.companies.listActive(actor.workspaceId, { offset: pageOffset(request), limit: request.perPage }),
      )
      return toPage(slice.rows.map(toCompany), slice.total, request)
    }),
})

export type Companies = ReturnType<typeof makeCompanies>
