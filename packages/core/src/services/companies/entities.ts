import { Effect } from "effect"
import { Forbidden, Invalid, messages, NotFound } from "../../errors.ts"
import {
  type Entity,
  EntityCreate,
  type EntityCreateBody,
  type EntityDeleted,
  EntityUpdate,
  type EntityUpdateBody,
  toEntity,
} from "../../model/entity.ts"
import type { WebhookEventNameOf } from "../../model/events.ts"
import type { CompanyId, EntityId, WorkspaceId } from "../../model/ids.ts"
import type { Clock } from "../../ports/clock.ts"
import type { EntityRecord, Repositories } from "../../ports/storage/index.ts"
import { type Page, type PageQuery, pageOffset, pagePolicies, parsePageRequest, toPage } from "../../rules/paging.ts"
import type { Actor } from "../steps/actor.ts"
import { decodeBody } from "../steps/decode-input.ts"
import { appendEvents, entityEventPayload } from "../steps/outbox.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import type { Lifted, ReadRepositories } from "../steps/transaction.ts"
import { inCompany, readInCompany, writeAccess } from "../steps/use-case.ts"

/** The spec's table answers an invalid entity country as a bad request (`missing`), not `invalid`. */
const countryIsBadRequest = { badRequestFields: ["country_alpha2"] }

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()

const findEntity = (tx: Lifted<ReadRepositories>, companyId: CompanyId, id: EntityId) =>
  tx.entities
    .findActive(companyId, id)
    .pipe(
      Effect.flatMap((row) =>
        row ? Effect.succeed(row) : Effect.fail(new NotFound({ field: "id", message: messages.entityNotFound })),
      ),
    )

const alreadyExists = (existing: EntityRecord, name: string) =>
  sameName(existing.name, name)
    ? Invalid.rule("name", messages.alreadyTaken)
    : Invalid.rule("base", messages.companyHasEntity)

/**
 * Use cases of entities: a company has at most one entity that is not deleted. Each change
 * writes its `entity.*` event to the outbox in its transaction (DECISIONS "Entity events").
 */
export const makeEntities = (ports: ServicePorts) => {
  /** Appends `entity.<action>` with the entity as it now is, stamped by the workspace's clock. */
  const entityEvent = (
    tx: Lifted<Repositories>,
    clock: Clock,
    workspaceId: WorkspaceId,
    event: WebhookEventNameOf<"EntityEvents">,
    row: EntityRecord,
  ) =>
    appendEvents(
      ports,
      tx,
      [
        {
          workspaceId,
          companyId: row.company_id,
          payload: entityEventPayload(event, { now: clock.now(), data: toEntity(row) }),
        },
      ],
      clock,
    )

  return {
    create: (
      actor: Actor,
      companyId: CompanyId,
      body: EntityCreateBody,
    ): Effect.Effect<Entity, Invalid | Forbidden | NotFound> =>
      Effect.gen(function* () {
        const input = yield* decodeBody(EntityCreate, body, countryIsBadRequest)
        return yield* inCompany(ports, actor, companyId, ({ tx, company, readClock }) =>
          Effect.gen(function* () {
            const clock = yield* readClock
            const now = clock.now().toISOString()
            const row: EntityRecord = {
              id: ports.ids.next("ent"),
              company_id: company.id,
              name: input.name,
              country_alpha2: input.country_alpha2,
              payment_integration_active: false,
              created_at: now,
              updated_at: now,
              deleted_at: null,
            }
            if (yield* tx.entities.insertIfNoneActive(row)) {
              yield* entityEvent(tx, clock, actor.workspaceId, "entity.created", row)
              return toEntity(row)
            }
            const existing = yield* tx.entities.findActiveOfCompany(company.id)
            return yield* Effect.fail(
              existing ? alreadyExists(existing, input.name) : Invalid.rule("base", messages.companyHasEntity),
            )
          }),
        )
      }).pipe(writeAccess(actor)),

    get: (actor: Actor, companyId: CompanyId, id: EntityId): Effect.Effect<Entity, NotFound> =>
      readInCompany(ports, actor, companyId, ({ tx, company }) => findEntity(tx, company.id, id)).pipe(
        Effect.map(toEntity),
      ),

    update: (
      actor: Actor,
      companyId: CompanyId,
      id: EntityId,
      body: EntityUpdateBody,
    ): Effect.Effect<Entity, Invalid | Forbidden | NotFound> =>
      Effect.gen(function* () {
        const input = yield* decodeBody(EntityUpdate, body, countryIsBadRequest)
        return yield* inCompany(ports, actor, companyId, ({ tx, company, readClock }) =>
          Effect.gen(function* () {
            const current = yield* findEntity(tx, company.id, id)
            if (current.payment_integration_active) {
              return yield* Effect.fail(new Forbidden({ field: "base", message: messages.entityUpdateIntegration }))
            }
            const clock = yield* readClock
            const next: EntityRecord = { ...current, ...input, updated_at: clock.now().toISOString() }
            yield* tx.entities.update(next)
            yield* entityEvent(tx, clock, actor.workspaceId, "entity.updated", next)
            return toEntity(next)
          }),
        )
      }).pipe(writeAccess(actor)),

    /** Soft-deletes the entity, which frees the company to create another. */
    delete: (actor: Actor, companyId: CompanyId, id: EntityId): Effect.Effect<EntityDeleted, Forbidden | NotFound> =>
      inCompany(ports, actor, companyId, ({ tx, company, readClock }) =>
        Effect.gen(function* () {
          const current = yield* findEntity(tx, company.id, id)
          if (current.payment_integration_active) {
            return yield* Effect.fail(new Forbidden({ field: "base", message: messages.entityDeleteIntegration }))
          }
          const clock = yield* readClock
          const now = clock.now().toISOString()
          const deleted: EntityRecord = { ...current, updated_at: now, deleted_at: now }
          yield* tx.entities.update(deleted)
          yield* entityEvent(tx, clock, actor.workspaceId, "entity.deleted", deleted)
          return { id: current.id, message: "Entity deleted successfully" }
        }),
      ).pipe(writeAccess(actor)),

    list: (
      actor: Actor,
      companyId: CompanyId,
      query: PageQuery = {},
    ): Effect.Effect<Page<Entity>, Invalid | NotFound> =>
      Effect.gen(function* () {
        const request = yield* parsePageRequest(query, pagePolicies.entities)
        const slice = yield* readInCompany(ports, actor, companyId, ({ tx, company }) =>
          tx.entities.listActive(company.id, { offset: pageOffset(request), limit: request.perPage }),
        )
        return toPage(slice.rows.map(toEntity), slice.total, request)
      }),
  }
}

export type Entities = ReturnType<typeof makeEntities>
