import type Router from "@koa/router"
import type { EntityOnboarding, HostedPageClaims, OnboardingAddress, OnboardingPerson } from "@payments-engine/core"
import { ApplicationId, CompanyId, EntityId, OnboardingPersonId } from "@payments-engine/core"
import {
  Forbidden,
  Invalid,
  NotFound,
  personRoles,
  requiredFeatureStatus,
  Unauthenticated,
} from "@payments-engine/core/effect"
import type { Context } from "koa"
import type { AppState } from "../app-state.ts"
import { everyCountry } from "./countries.ts"
import { errorsByField, type HostedKit, queryToken } from "./kit.ts"
import {
  addressFields,
  businessFields,
  type EntityFeatureView,
  entityFeaturePage,
  type FilledForm,
  newPersonPrefix,
  notWaitingPage,
  type PersonRow,
  personFields,
  personPrefix,
  submittedPage,
  type TextField,
} from "./views/entity-feature.ts"

/** The purposes of the page's tokens. */
const purposes = ["onboarding", "pending_action"] as const

/** What the page's redirects may ask it to say, and the section they return to. */
const notices: Readonly<Record<string, string>> = {
  saved: "Saved.",
  people: "Saved: the people's details.",
  business: "Saved: business details.",
  address: "Saved: business address.",
  "person-added": "Saved: the person is added.",
  "person-removed": "Saved: the person is removed.",
}

/** How each person role reads on the page. */
const roleLabels: Readonly<Record<(typeof personRoles)[number], string>> = {
  beneficial_owner: "Beneficial owner",
  director: "Director",
  authorized_person: "Authorized person",
  controlling_person: "Controlling person",
  legal_representative: "Legal representative",
}

/** A person's fields as typed, with the errors that kept them from being saved. */
type FilledPerson = FilledForm & { readonly roles: ReadonlyArray<string> }

/** What was typed in the sections that could not be saved, shown again as typed with their errors. */
interface Retyped {
  readonly onboarding?: FilledForm
  readonly persons: ReadonlyMap<string, FilledPerson>
  readonly newPerson?: FilledPerson
  /** The submit's error about the people (no person yet). */
  readonly personsError?: string
}

const noneRetyped: Retyped = { persons: new Map() }

/** Errors by the engine's field name. */
type Errors = Record<string, string>

/** The business details' and address's fields: saved together, as one PATCH of the onboarding. */
const onboardingFields = [...businessFields, ...addressFields]

/** An address's stored values under the field names of `prefix`. */
const addressValues = (prefix: string, address: OnboardingAddress | null) => ({
  [`${prefix}.line1`]: address?.line1 ?? "",
  [`${prefix}.line2`]: address?.line2 ?? "",
  [`${prefix}.city`]: address?.city ?? "",
  [`${prefix}.state`]: address?.state ?? "",
  [`${prefix}.postal_code`]: address?.postal_code ?? "",
  [`${prefix}.country_alpha2`]: address?.country_alpha2 ?? "",
})

/** The stored values of the business details and address, by field name. */
const onboardingValues = (onboarding: EntityOnboarding | null): Record<string, string> => {
  const details = onboarding?.business_details
  return {
    ...addressValues("business_address", details?.business_address ?? null),
    "business_details.business_name": details?.business_name ?? "",
    "business_details.business_name_trading": details?.business_name_trading ?? "",
    "business_details.business_structure": details?.business_structure ?? "",
    "business_details.business_start_date": details?.business_start_date ?? "",
    "business_details.website_url": details?.website_url ?? "",
    "business_details.contact_phone": details?.contact_phone ?? "",
    "primary_contact.email": onboarding?.primary_contact_email ?? "",
  }
}

/** The stored values of a person's form, by field name. */
const personValues = (person: OnboardingPerson): Record<string, string> => ({
  first_name: person.first_name ?? "",
  last_name: person.last_name ?? "",
  email: person.email ?? "",
  date_of_birth: person.date_of_birth ?? "",
  nationality: person.nationality ?? "",
  job_title: person.job_title ?? "",
})

/** How a person is named in the list. */
const nameOf = (person: OnboardingPerson) =>
  [person.first_name, person.last_name].filter((part) => part !== null && part !== "").join(" ") || "Unnamed person"

/**
 * The fields of a posted form under `prefix`, as typed, by the field's own name: only those the
 * form has (a field not sent is not cleared), at most each field's length, so nothing huge is echoed.
 */
const typedValues = (form: URLSearchParams, fields: ReadonlyArray<TextField>, prefix = "") =>
  Object.fromEntries(
    fields
      .filter((field) => form.has(`${prefix}${field.name}`))
      .map((field) => [field.name, (form.get(`${prefix}${field.name}`) ?? "").slice(0, field.maxlength + 64)]),
  )

/** The roles ticked under `prefix` on a posted form. */
const typedRoles = (form: URLSearchParams, prefix = "") =>
  form.getAll(`${prefix}roles`).slice(0, personRoles.length * 2)

/** True when every typed value is what is stored (blanks and spaces aside). */
const unchanged = (typed: Record<string, string>, stored: Record<string, string>) =>
  Object.entries(typed).every(([name, value]) => value.trim() === (stored[name] ?? "").trim())

/** True when both lists hold the same roles, in any order. */
const sameRoles = (typed: ReadonlyArray<string>, stored: ReadonlyArray<string>) =>
  typed.length === stored.length && typed.every((role) => stored.includes(role))

/** A typed value as the engine takes it: an emptied field clears what was there. */
const orNull = (value: string) => (value.trim() === "" ? null : value.trim())

/** `{ "a.b": v }` as `{ a: { b: v } }`: the engine's request shape from the form's field names. */
const nested = (values: Record<string, string>): Record<string, Record<string, string | null>> => {
  const body: Record<string, Record<string, string | null>> = {}
  for (const [name, value] of Object.entries(values)) {
    const [section = "", field = ""] = name.split(".")
    body[section] = { ...body[section], [field]: orNull(value) }
  }
  return body
}

/** A person's typed values as the engine's person body; `create` leaves empty fields out rather than clearing them. */
const personBody = (values: Record<string, string>, roles: ReadonlyArray<string>, create: boolean) => {
  const body: Record<string, unknown> = { roles }
  for (const [name, value] of Object.entries(values)) {
    const given = orNull(value)
    if (given !== null || !create) body[name] = given
  }
  return body
}

/**
 * `/entity-feature` (spec "Features and hosted-page tokens for features"): a person holding an
 * `onboarding` token (application CREATED) fills the onboarding, saved through the same use cases
 * as the API's onboarding and person routes, then submits it; with a `pending_action` token
 * (ACTION_REQUIRED) the same form, to correct and submit again. The page is one form: every
 * button (each section's Save, Add person, Remove, Submit) first saves whatever was typed
 * anywhere on it, so nothing typed is lost whichever is pressed; a section that cannot be saved
 * comes back as typed, its errors by its fields. The submit goes to the return URL when the token
 * has one, else to a "submitted" page; the same link opened again says the application is submitted.
 */
export const entityFeatureRoutes = (router: Router<AppState>, kit: HostedKit): void => {
  const { engine } = kit
  const paths = {
    page: kit.path("/entity-feature"),
    save: kit.path("/entity-feature/save"),
    removePerson: kit.path("/entity-feature/persons/remove"),
    submit: kit.path("/entity-feature/submit"),
    done: kit.path("/entity-feature/done"),
  }

  const scopeOf = (claims: HostedPageClaims) => ({
    companyId: CompanyId.make(claims.companyId),
    entityId: EntityId.make(claims.entityId),
    applicationId: ApplicationId.make(claims.applicationId ?? ""),
  })

  /**
   * True when the token's application is still in the status its purpose is for; else the
   * "nothing to do" page is rendered (409): a token outlives the step it was issued for.
   */
  const stillWaiting = async (ctx: Context, claims: HostedPageClaims) => {
    const scope = scopeOf(claims)
    const features = await engine.features.list(kit.actorOf(claims), scope.companyId, scope.entityId)
    const application = features.find((feature) => feature.application_id === scope.applicationId)
    const purpose = claims.purpose as (typeof purposes)[number]
    if (application?.status === requiredFeatureStatus[purpose]) return true
    kit.render(ctx, 409, notWaitingPage(kit.frame(ctx, "Nothing to do here")), claims.returnUrl)
    return false
  }

  const show = async (
    ctx: Context,
    status: number,
    token: string,
    claims: HostedPageClaims,
    extra: { retyped?: Retyped; notice?: string; problem?: string } = {},
  ) => {
    const scope = scopeOf(claims)
    // The persons are read on their own: they can be added (through the API) before any onboarding is saved.
    const [onboarding, storedPersons, csrf] = await Promise.all([
      engine.onboardings.get(kit.actorOf(claims), scope.companyId, scope.entityId),
      engine.onboardings.allPersons(kit.actorOf(claims), scope.companyId, scope.entityId),
      engine.hostedPageTokens.csrfToken(claims),
    ])
    const retyped = extra.retyped ?? noneRetyped
    const persons: Array<PersonRow> = storedPersons.map((person) => {
      const mine = retyped.persons.get(person.id)
      return {
        id: person.id,
        name: nameOf(person),
        values: { ...personValues(person), ...mine?.values },
        roles: mine?.roles ?? person.roles,
        errors: mine?.errors ?? {},
      }
    })
    const view: EntityFeatureView = {
      token,
      csrf,
      pendingAction: claims.purpose === "pending_action",
      onboarding: {
        values: { ...onboardingValues(onboarding), ...retyped.onboarding?.values },
        errors: retyped.onboarding?.errors ?? {},
      },
      persons,
      newPerson: retyped.newPerson ?? { values: {}, roles: [], errors: {} },
      ...(retyped.personsError === undefined ? {} : { personsError: retyped.personsError }),
      roles: personRoles.map((role) => ({ value: role, label: roleLabels[role] })),
      countries: everyCountry,
      ...(extra.notice === undefined ? {} : { notice: extra.notice }),
      ...(extra.problem === undefined ? {} : { problem: extra.problem }),
      actions: paths,
    }
    const title = claims.purpose === "pending_action" ? "More information needed" : "Open your account"
    kit.render(ctx, status, entityFeaturePage(kit.frame(ctx, title), view), claims.returnUrl)
  }

  /** The checked form of a POST whose application still waits for it, or undefined once answered. */
  const checkedPost = async (ctx: Context) => {
    const checked = await kit.verifiedForm(ctx, purposes, paths.page)
    if (checked === undefined) return undefined
    if (!(await stillWaiting(ctx, checked.claims))) return undefined
    return checked
  }

  /**
   * Saves every section of the posted form whose typed values differ from what is stored (the
   * person `skipPerson` aside, being removed): the business details and address as the API's
   * PATCH, each listed person as its PATCH, the new person as its POST when anything of it was
   * typed. Each is saved on its own; those refused come back in `retyped`, with their errors. A
   * person no longer there (404) or an onboarding made read-only (403) is a `problem` instead.
   */
  const saveTyped = async (claims: HostedPageClaims, form: URLSearchParams, skipPerson?: string) => {
    const { companyId, entityId } = scopeOf(claims)
    const actor = kit.actorOf(claims)
    const [onboarding, storedPersons] = await Promise.all([
      engine.onboardings.get(actor, companyId, entityId),
      engine.onboardings.allPersons(actor, companyId, entityId),
    ])
    let problem: { readonly status: number; readonly message: string } | undefined
    /** Runs one save: its refusal's errors by field, or undefined when saved. */
    const attempt = async (save: () => Promise<unknown>): Promise<Errors | undefined> => {
      try {
        await save()
        return undefined
      } catch (error) {
        if (error instanceof Invalid) return errorsByField(error)
        if (error instanceof NotFound || error instanceof Forbidden) {
          problem ??= { status: error instanceof NotFound ? 404 : 403, message: error.message }
          return {}
        }
        throw error
      }
    }

    let retypedOnboarding: Retyped["onboarding"]
    const typedOnboarding = typedValues(form, onboardingFields)
    if (!unchanged(typedOnboarding, onboardingValues(onboarding))) {
      const errors = await attempt(() => engine.onboardings.update(actor, companyId, entityId, nested(typedOnboarding)))
      if (errors !== undefined) retypedOnboarding = { values: typedOnboarding, errors }
    }

    const persons = new Map<string, FilledPerson>()
    for (const person of storedPersons) {
      const prefix = personPrefix(person.id)
      const values = typedValues(form, personFields, prefix)
      // A person none of whose fields was sent is not on the form posted (it was added meanwhile).
      if (person.id === skipPerson || Object.keys(values).length === 0) continue
      const roles = typedRoles(form, prefix)
      if (unchanged(values, personValues(person)) && sameRoles(roles, person.roles)) continue
      const errors = await attempt(() =>
        engine.onboardings.updatePerson(actor, companyId, entityId, person.id, personBody(values, roles, false)),
      )
      if (errors !== undefined) persons.set(person.id, { values, roles, errors })
    }

    let newPerson: FilledPerson | undefined
    let added = false
    const newValues = typedValues(form, personFields, newPersonPrefix)
    const newRoles = typedRoles(form, newPersonPrefix)
    if (newRoles.length > 0 || Object.values(newValues).some((value) => value.trim() !== "")) {
      const errors = await attempt(() =>
        engine.onboardings.createPerson(actor, companyId, entityId, personBody(newValues, newRoles, true)),
      )
      if (errors === undefined) added = true
      else newPerson = { values: newValues, roles: newRoles, errors }
    }

    const retyped: Retyped = {
      ...(retypedOnboarding === undefined ? {} : { onboarding: retypedOnboarding }),
      persons,
      ...(newPerson === undefined ? {} : { newPerson }),
    }
    const refused = retypedOnboarding !== undefined || persons.size > 0 || newPerson !== undefined
    return { retyped, refused, problem, added }
  }

  type Saved = Awaited<ReturnType<typeof saveTyped>>

  /** Shows the page again as typed after a save refused: 422 with the errors by the fields, or the 404/403 problem. */
  const showRefused = (ctx: Context, checked: { token: string; claims: HostedPageClaims }, saved: Saved) =>
    show(ctx, saved.problem?.status ?? 422, checked.token, checked.claims, {
      retyped: saved.retyped,
      problem: saved.problem?.message ?? "Please correct the fields marked below; the rest is saved.",
    })

  router.get(kit.route(paths.page), async (ctx) => {
    const token = queryToken(ctx)
    const claims = await kit.verified(ctx, token, purposes, {
      // The person who submitted opens the same link again: it says so, not that the link is bad.
      whenUsed: (used) =>
        kit.render(ctx, 200, submittedPage(kit.frame(ctx, "Application submitted"), true), used.returnUrl),
    })
    if (claims === undefined || !(await stillWaiting(ctx, claims))) return
    const notice = typeof ctx.query.notice === "string" ? notices[ctx.query.notice] : undefined
    await show(ctx, 200, token, claims, notice === undefined ? {} : { notice })
  })

  router.post(kit.route(paths.save), async (ctx) => {
    const checked = await checkedPost(ctx)
    if (checked === undefined) return
    const { form, token, claims } = checked
    const saved = await saveTyped(claims, form)
    if (saved.refused || saved.problem !== undefined) {
      await showRefused(ctx, checked, saved)
      return
    }
    const section = form.get("section") ?? ""
    const notice = saved.added ? "person-added" : section in notices ? section : "saved"
    const anchor = saved.added ? "people" : section in notices ? section : "business"
    kit.seeOther(ctx, `${kit.withToken(paths.page, token, { notice })}#${anchor}`, claims.returnUrl)
  })

  router.post(kit.route(paths.removePerson), async (ctx) => {
    const checked = await checkedPost(ctx)
    if (checked === undefined) return
    const { form, token, claims } = checked
    const personId = (form.get("person_id") ?? "").slice(0, 128)
    const saved = await saveTyped(claims, form, personId)
    if (saved.refused || saved.problem !== undefined) {
      await showRefused(ctx, checked, saved)
      return
    }
    const scope = scopeOf(claims)
    try {
      await engine.onboardings.deletePerson(
        kit.actorOf(claims),
        scope.companyId,
        scope.entityId,
        OnboardingPersonId.make(personId),
      )
    } catch (error) {
      if (error instanceof NotFound || error instanceof Forbidden) {
        await show(ctx, error instanceof NotFound ? 404 : 403, token, claims, { problem: error.message })
        return
      }
      throw error
    }
    kit.seeOther(ctx, `${kit.withToken(paths.page, token, { notice: "person-removed" })}#people`, claims.returnUrl)
  })

  // The one place the page submits the application, after saving what was typed; the submission uses the token up.
  router.post(kit.route(paths.submit), async (ctx) => {
    const checked = await checkedPost(ctx)
    if (checked === undefined) return
    const { form, token, claims } = checked
    const saved = await saveTyped(claims, form)
    if (saved.refused || saved.problem !== undefined) {
      await show(ctx, saved.problem?.status ?? 422, token, claims, {
        retyped: saved.retyped,
        problem:
          saved.problem?.message ?? "Please correct the fields marked below: the application is not submitted yet.",
      })
      return
    }
    try {
      await engine.features.submit(kit.actorOf(claims), scopeOf(claims), { usingToken: claims })
    } catch (error) {
      if (error instanceof Unauthenticated) {
        kit.unauthorized(ctx)
        return
      }
      if (error instanceof Invalid) {
        const { persons: personsError, ...errors } = errorsByField(error)
        await show(ctx, 422, token, claims, {
          retyped: {
            onboarding: { values: {}, errors },
            persons: new Map(),
            ...(personsError === undefined ? {} : { personsError }),
          },
          problem: "Some details are still missing: complete the fields marked below, then submit again.",
        })
        return
      }
      throw error
    }
    kit.seeOther(ctx, claims.returnUrl ?? kit.withToken(paths.done, token), claims.returnUrl)
  })

  router.get(kit.route(paths.done), async (ctx) => {
    const claims = await kit.usedUpClaims(ctx, purposes, paths.page)
    if (claims === undefined) return
    kit.render(ctx, 200, submittedPage(kit.frame(ctx, "Application submitted"), false), claims.returnUrl)
  })
}
