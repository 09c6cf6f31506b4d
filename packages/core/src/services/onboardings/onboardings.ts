import { Effect } from "effect"
import type { Forbidden, Invalid } from "../../errors.ts"
import { NotFound } from "../../errors.ts"
import type { CompanyId, EntityId, OnboardingPersonId, PersonIdentificationId } from "../../model/ids.ts"
import {
  type BusinessDetails,
  type EntityOnboarding,
  OnboardingUpdate,
  type OnboardingUpdateBody,
  onboardingMessages,
  onboardingStatusOfFeature,
  storedBusinessDetails,
  toEntityOnboarding,
} from "../../model/onboarding.ts"
import type { AddressInput, AddressType, OnboardingAddress } from "../../model/onboarding-fields.ts"
import {
  type IdentificationInput,
  maskTaxId,
  type OnboardingPerson,
  type PersonBody,
  PersonInput,
  personMessages,
  type personRoles,
  type StoredIdentification,
  type StoredPersonDetails,
  storedPersonDetails,
  toOnboardingPerson,
} from "../../model/onboarding-person.ts"
import type { OnboardingRecord, PersonRecord, Repositories } from "../../ports/storage/index.ts"
import { type Page, type PageQuery, pagePolicies } from "../../rules/paging.ts"
import type { Actor } from "../steps/actor.ts"
import type { AnswerSecrets } from "../steps/answer-secrets.ts"
import { decodeBody } from "../steps/decode-input.ts"
import { findChangeableOnboardingEntity, findOnboardingEntity, onboardingPage } from "../steps/onboarding-lookups.ts"
import { sealed } from "../steps/secret-sealing.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inRead, inTransaction, type Lifted, type ReadRepositories } from "../steps/transaction.ts"
import { writeAccess } from "../steps/use-case.ts"
import { workspaceClock } from "../steps/workspace-clock.ts"

/** How often a first save retries when a racing first save of the same entity won the insert. */
const insertAttempts = 3

/** `value` when sent (null clears), else what was there. */
const patched = <T>(value: T | null | undefined, current: T | null | undefined): T | null =>
  value === undefined ? (current ?? null) : value

/** An address with `input` written over `current`; a new one gets `newId()`. */
const patchedAddress = (
  current: OnboardingAddress | null,
  input: AddressInput,
  type: AddressType,
  now: string,
  newId: () => OnboardingAddress["id"],
): OnboardingAddress => ({
  id: current?.id ?? newId(),
  address_type: type,
  line1: patched(input.line1, current?.line1),
  line2: patched(input.line2, current?.line2),
  city: patched(input.city, current?.city),
  state: patched(input.state, current?.state),
  postal_code: patched(input.postal_code, current?.postal_code),
  country_alpha2: patched(input.country_alpha2, current?.country_alpha2),
  created_at: current?.created_at ?? now,
  updated_at: now,
})

type PersonRole = (typeof personRoles)[number]

/** A stored identification before the transaction stamps it with the workspace's time. */
type UnstampedIdentification = Omit<StoredIdentification, "created_at" | "updated_at">

/**
 * A person's identifications as stored: tax ids sealed (bound to the identification's id) with
 * their last four, and the numbers sent by id, for the create answer. Sealed before the
 * transaction, as the webhook secret is.
 */
const storedIdentifications = (
  ports: ServicePorts,
  inputs: ReadonlyArray<IdentificationInput>,
): Effect.Effect<{ stored: ReadonlyArray<UnstampedIdentification>; revealed: ReadonlyMap<string, string> }> =>
  Effect.gen(function* () {
    const revealed = new Map<string, string>()
    const stored: Array<UnstampedIdentification> = []
    for (const input of inputs) {
      const id: PersonIdentificationId = ports.ids.next("pid")
      const isTaxId = input.identification_type === "tax_id"
      if (isTaxId) revealed.set(id, input.identification_number)
      stored.push({
        id,
        identification_type: input.identification_type,
        identification_number: isTaxId ? null : input.identification_number,
        sealed_number: isTaxId
          ? yield* sealed(ports.serverSecret, id, input.identification_number, "person-tax-id")
          : null,
        number_last4: isTaxId ? input.identification_number.slice(-4) : null,
        issuing_country: input.issuing_country ?? null,
        effective_date: input.effective_date ?? null,
        expiration_date: input.expiration_date ?? null,
        is_primary: input.is_primary ?? false,
        tax_id_type: input.tax_id_type ?? null,
      })
    }
    return { stored, revealed }
  })

/**
 * A person create echoes each tax id in full (`identifications`): its `identification_number` is
 * kept sealed in a remembered answer, and a replay that can no longer open it shows the mask.
 */
export const personAnswerSecrets: AnswerSecrets = {
  listed: [
    {
      list: "identifications",
      holds: (item: object) => (item as { readonly identification_type?: unknown }).identification_type === "tax_id",
      field: "identification_number",
      unopenable: maskTaxId(""),
    },
  ],
}

/**
 * Use cases of an entity's onboarding (the data gathered before the multi-currency account is
 * applied for) and of its persons. Every one finds the company in the actor's workspace and the
 * entity in the company first: another company's entity is `not_found`. Once the entity has an
 * active payment integration, the onboarding and its persons are read-only (`forbidden`).
 */
export const makeOnboardings = (ports: ServicePorts) => {
  const nowOf = (tx: Lifted<Repositories>, actor: Actor) =>
    workspaceClock(ports, tx, actor.workspaceId).pipe(Effect.map((clock) => clock.now().toISOString()))

  const personNotFound = () => new NotFound({ field: "id", message: personMessages.notFound })

  const personsOf = (tx: Lifted<ReadRepositories>, actor: Actor, entityId: EntityId) =>
    tx.onboardingPersons
      .listAll(actor.workspaceId, entityId)
      .pipe(Effect.map((rows) => rows.map((row) => toOnboardingPerson(row))))

  /** The business details with every section of `input` written over them. */
  const patchedDetails = (current: BusinessDetails | undefined, input: OnboardingUpdate, now: string) => {
    const fields = input.business_details ?? {}
    const details: BusinessDetails = {
      id: current?.id ?? ports.ids.next("obd"),
      business_name: patched(fields.business_name, current?.business_name),
      business_name_trading: patched(fields.business_name_trading, current?.business_name_trading),
      business_structure: patched(fields.business_structure, current?.business_structure),
      business_start_date: patched(fields.business_start_date, current?.business_start_date),
      industry_category_code: patched(fields.industry_category_code, current?.industry_category_code),
      description_of_goods_services: patched(
        fields.description_of_goods_services,
        current?.description_of_goods_services,
      ),
      website_url: patched(fields.website_url, current?.website_url),
      contact_phone: patched(fields.contact_phone, current?.contact_phone),
      state_of_incorporation: patched(fields.state_of_incorporation, current?.state_of_incorporation),
      created_at: current?.created_at ?? now,
      updated_at: now,
      business_address:
        input.business_address === undefined
          ? (current?.business_address ?? null)
          : patchedAddress(current?.business_address ?? null, input.business_address, "business", now, () =>
              ports.ids.next("oad"),
            ),
      registration_address:
        input.registration_address === undefined
          ? (current?.registration_address ?? null)
          : patchedAddress(current?.registration_address ?? null, input.registration_address, "registration", now, () =>
              ports.ids.next("oad"),
            ),
      business_identifiers:
        input.business_identifiers === undefined
          ? (current?.business_identifiers ?? [])
          : input.business_identifiers.map((identifier) => ({
              id: ports.ids.next("bid"),
              identifier_type: identifier.identifier_type,
              identifier_number: identifier.identifier_number,
              country_alpha2: identifier.country_alpha2 ?? null,
              created_at: now,
              updated_at: now,
            })),
    }
    return details
  }

  /** The primary-contact fields of the onboarding with `input` written over them. */
  const patchedContact = (current: OnboardingRecord | undefined, input: OnboardingUpdate) => {
    const contact = input.primary_contact ?? {}
    return {
      primary_contact_email: patched(contact.email, current?.primary_contact_email),
      primary_contact_mobile: patched(contact.mobile, current?.primary_contact_mobile),
      primary_contact_mobile_country_code: patched(
        contact.mobile_country_code,
        current?.primary_contact_mobile_country_code,
      ),
    }
  }

  /** A person's stored fields with `input` written over `current`; identifications given replace them all. */
  const patchedPerson = (
    current: StoredPersonDetails | undefined,
    input: PersonInput,
    identifications: ReadonlyArray<StoredIdentification> | undefined,
    now: string,
  ): StoredPersonDetails => ({
    first_name: patched(input.first_name, current?.first_name),
    middle_name: patched(input.middle_name, current?.middle_name),
    last_name: patched(input.last_name, current?.last_name),
    email: patched(input.email, current?.email),
    phone_number: patched(input.phone_number, current?.phone_number),
    date_of_birth: patched(input.date_of_birth, current?.date_of_birth),
    nationality: patched(input.nationality, current?.nationality),
    job_title: patched(input.job_title, current?.job_title),
    roles:
      input.roles === undefined ? (current?.roles ?? []) : ([...new Set(input.roles)] as ReadonlyArray<PersonRole>),
    residential_address:
      input.residential_address === undefined
        ? (current?.residential_address ?? null)
        : input.residential_address === null
          ? null
          : patchedAddress(current?.residential_address ?? null, input.residential_address, "residential", now, () =>
              ports.ids.next("oad"),
            ),
    identifications: identifications ?? current?.identifications ?? [],
  })

  return {
    /**
     * The entity's onboarding with its persons, or null before anything was saved.
     *
     * @example
     * const onboarding = await engine.onboardings.get(actor, cid, eid) // null at first
     */
    get: (actor: Actor, companyId: CompanyId, entityId: EntityId): Effect.Effect<EntityOnboarding | null, NotFound> =>
      inRead(ports.storage, (tx) =>
        Effect.gen(function* () {
          const entity = yield* findOnboardingEntity(tx, actor, companyId, entityId)
          const row = yield* tx.onboardings.findByEntity(actor.workspaceId, entity.id)
          if (row === undefined) return null
          return toEntityOnboarding(row, yield* personsOf(tx, actor, entity.id))
        }),
      ),

    /**
     * Saves any section of the onboarding (business details, the two addresses, identifiers,
     * which a given array replaces, primary contact), creating it on first use with the status
     * its entity's feature gives it. Fields left out keep their values; null clears one.
     *
     * @example
     * await engine.onboardings.update(actor, cid, eid, { business_details: { business_name: "Acme" } })
     */
    update: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      body: OnboardingUpdateBody,
    ): Effect.Effect<EntityOnboarding, Invalid | Forbidden | NotFound> =>
      Effect.gen(function* () {
        const input = yield* decodeBody(OnboardingUpdate, body)
        return yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const entity = yield* findChangeableOnboardingEntity(
              tx,
              actor,
              companyId,
              entityId,
              onboardingMessages.updateIntegration,
            )
            const now = yield* nowOf(tx, actor)
            for (let attempt = 0; attempt < insertAttempts; attempt += 1) {
              const current = yield* tx.onboardings.findByEntity(actor.workspaceId, entity.id)
              if (current !== undefined) {
                const next = yield* tx.onboardings.update(actor.workspaceId, current.id, {
                  ...patchedContact(current, input),
                  business_details: JSON.stringify(patchedDetails(storedBusinessDetails(current), input, now)),
                  updated_at: now,
                })
                if (next === undefined) continue
                return toEntityOnboarding(next, yield* personsOf(tx, actor, entity.id))
              }
              const feature = (yield* tx.features.listByEntity(entity.id)).find(
                (f) => f.feature_identifier === "multi_currency_account",
              )
              const status = onboardingStatusOfFeature[feature?.status ?? "CREATED"]
              const row: OnboardingRecord = {
                id: ports.ids.next("onb"),
                workspace_id: actor.workspaceId,
                company_id: entity.company_id,
                entity_id: entity.id,
                status,
                // An onboarding saved first after the feature moved takes the move's time.
                submitted_at: status === "draft" ? null : (feature?.updated_at ?? null),
                approved_at: status === "approved" ? (feature?.updated_at ?? null) : null,
                ...patchedContact(undefined, input),
                business_details: JSON.stringify(patchedDetails(undefined, input, now)),
                created_at: now,
                updated_at: now,
              }
              if (yield* tx.onboardings.insertIfNone(row)) {
                return toEntityOnboarding(row, yield* personsOf(tx, actor, entity.id))
              }
            }
            return yield* Effect.dieMessage(`the onboarding of ${entity.id} was neither stored nor found`)
          }),
        )
      }).pipe(writeAccess(actor)),

    /** The entity's persons, oldest first, 25 a page. */
    listPersons: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      query: PageQuery = {},
    ): Effect.Effect<Page<OnboardingPerson>, Invalid | NotFound> =>
      onboardingPage(
        ports,
        actor,
        { companyId, entityId },
        query,
        pagePolicies.onboardingPersons,
        (tx, entity, window) => tx.onboardingPersons.list(actor.workspaceId, entity, window),
        (row) => toOnboardingPerson(row),
      ),

    /**
     * Every person of the entity, oldest first, unpaged, tax ids masked: also before any
     * onboarding is saved (when `get` answers null), for a page that shows them all at once.
     *
     * @example
     * const persons = await engine.onboardings.allPersons(actor, cid, eid)
     */
    allPersons: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
    ): Effect.Effect<ReadonlyArray<OnboardingPerson>, NotFound> =>
      inRead(ports.storage, (tx) =>
        Effect.gen(function* () {
          const entity = yield* findOnboardingEntity(tx, actor, companyId, entityId)
          return yield* personsOf(tx, actor, entity.id)
        }),
      ),

    /** A person of the entity, a tax id masked to its last four characters. */
    getPerson: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      id: OnboardingPersonId,
    ): Effect.Effect<OnboardingPerson, NotFound> =>
      inRead(ports.storage, (tx) =>
        Effect.gen(function* () {
          const entity = yield* findOnboardingEntity(tx, actor, companyId, entityId)
          const row = yield* tx.onboardingPersons.find(actor.workspaceId, entity.id, id)
          if (row === undefined) return yield* Effect.fail(personNotFound())
          return toOnboardingPerson(row)
        }),
      ),

    /**
     * Adds a person (every field optional). The answer echoes a tax id as sent; storage keeps it
     * sealed with its last four characters, and every later read masks it.
     *
     * @example
     * await engine.onboardings.createPerson(actor, cid, eid, { first_name: "Ada", roles: ["director"] })
     */
    createPerson: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      body: PersonBody,
    ): Effect.Effect<OnboardingPerson, Invalid | Forbidden | NotFound> =>
      Effect.gen(function* () {
        const input = yield* decodeBody(PersonInput, body)
        const identifications = yield* storedIdentifications(ports, input.identifications ?? [])
        return yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const entity = yield* findChangeableOnboardingEntity(tx, actor, companyId, entityId)
            const now = yield* nowOf(tx, actor)
            const stamped = identifications.stored.map((i) => ({ ...i, created_at: now, updated_at: now }))
            const row: PersonRecord = {
              id: ports.ids.next("per"),
              workspace_id: actor.workspaceId,
              company_id: entity.company_id,
              entity_id: entity.id,
              details: JSON.stringify(patchedPerson(undefined, input, stamped, now)),
              created_at: now,
              updated_at: now,
            }
            yield* tx.onboardingPersons.insert(row)
            return toOnboardingPerson(row, identifications.revealed)
          }),
        )
      }).pipe(writeAccess(actor)),

    /** Changes any of the create fields; identifications given replace the person's. */
    updatePerson: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      id: OnboardingPersonId,
      body: PersonBody,
    ): Effect.Effect<OnboardingPerson, Invalid | Forbidden | NotFound> =>
      Effect.gen(function* () {
        const input = yield* decodeBody(PersonInput, body)
        const identifications =
          input.identifications === undefined ? undefined : yield* storedIdentifications(ports, input.identifications)
        return yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const entity = yield* findChangeableOnboardingEntity(tx, actor, companyId, entityId)
            const current = yield* tx.onboardingPersons.find(actor.workspaceId, entity.id, id)
            if (current === undefined) return yield* Effect.fail(personNotFound())
            const now = yield* nowOf(tx, actor)
            const stamped = identifications?.stored.map((i) => ({ ...i, created_at: now, updated_at: now }))
            const next = yield* tx.onboardingPersons.update(actor.workspaceId, entity.id, current.id, {
              details: JSON.stringify(patchedPerson(storedPersonDetails(current), input, stamped, now)),
              updated_at: now,
            })
            if (next === undefined) return yield* Effect.fail(personNotFound())
            return toOnboardingPerson(next)
          }),
        )
      }).pipe(writeAccess(actor)),

    /** Removes a person, with its identifications. */
    deletePerson: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      id: OnboardingPersonId,
    ): Effect.Effect<void, Forbidden | NotFound> =>
      Effect.gen(function* () {
        yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const entity = yield* findChangeableOnboardingEntity(tx, actor, companyId, entityId)
            if (!(yield* tx.onboardingPersons.delete(actor.workspaceId, entity.id, id))) {
              return yield* Effect.fail(personNotFound())
            }
          }),
        )
      }).pipe(writeAccess(actor)),
  }
}

export type Onboardings = ReturnType<typeof makeOnboardings>
