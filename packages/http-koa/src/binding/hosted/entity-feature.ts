import type Router from "@koa/router"
import {
  ApplicationId,
  CompanyId,
  EntityId,
  type EntityOnboarding,
  Forbidden,
  type HostedPageClaims,
  Invalid,
  NotFound,
  type OnboardingAddress,
  type OnboardingPerson,
  OnboardingPersonId,
  personRoles,
  requiredFeatureStatus,
  Unauthenticated,
} from "@payments-engine/core"
import type { Context } from "koa"
import type { AppState } from "../app-state.ts"
import { errorsByField, type HostedKit, queryToken } from "./kit.ts"
import {
  addressFields,
  businessFields,
  type EntityFeatureView,
  entityFeaturePage,
  type FilledForm,
  notWaitingPage,
  type PersonRow,
  personFields,
  submittedPage,
  type TextField,
} from "./views/entity-feature.ts"

/** The purposes of the page's tokens. */
const purposes = ["onboarding", "pending_action"] as const

/** What the page's redirects may ask it to say, and the section they return to. */
const notices: Readonly<Record<string, string>> = {
  business: "Saved: business details.",
  address: "Saved: business address.",
  "person-added": "Saved: the person is added.",
  "person-saved": "Saved: the person's details.",
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

/** Which form was posted and came back with errors, with what was typed in it. */
type Retyped =
  | { readonly form: "business" | "address"; readonly values: Record<string, string> }
  | {
      readonly form: "new-person" | "person"
      readonly personId?: string
      readonly values: Record<string, string>
      readonly roles: ReadonlyArray<string>
    }

/** An address's stored values under the field names of `prefix`. */
const addressValues = (prefix: string, address: OnboardingAddress | null) => ({
  [`${prefix}.line1`]: address?.line1 ?? "",
  [`${prefix}.line2`]: address?.line2 ?? "",
  [`${prefix}.city`]: address?.city ?? "",
  [`${prefix}.state`]: address?.state ?? "",
  [`${prefix}.postal_code`]: address?.postal_code ?? "",
  [`${prefix}.country_alpha2`]: address?.country_alpha2 ?? "",
})

/** The stored values of the business section, by field name. */
const businessValues = (onboarding: EntityOnboarding | null): Record<string, string> => {
  const details = onboarding?.business_details
  return {
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

/** The fields of a posted form, as typed (at most each field's length, so nothing huge is echoed). */
const typedValues = (form: URLSearchParams, fields: ReadonlyArray<TextField>) =>
  Object.fromEntries(fields.map((field) => [field.name, (form.get(field.name) ?? "").slice(0, field.maxlength + 64)]))

/** The roles ticked on a posted person form. */
const typedRoles = (form: URLSearchParams) => form.getAll("roles").slice(0, personRoles.length * 2)

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
 * `onboarding` token (application CREATED) fills the onboarding section by section, each saved
 * through the same use cases as the API's onboarding and person routes, then submits it; with a
 * `pending_action` token (ACTION_REQUIRED) the same form, to correct and submit again. The submit
 * goes to the return URL when the token has one, else to a "submitted" page.
 */
export const entityFeatureRoutes = (router: Router<AppState>, kit: HostedKit): void => {
  const { engine } = kit
  const paths = {
    page: kit.path("/entity-feature"),
    business: kit.path("/entity-feature/business"),
    address: kit.path("/entity-feature/address"),
    addPerson: kit.path("/entity-feature/persons/add"),
    savePerson: kit.path("/entity-feature/persons/save"),
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
    kit.render(ctx, 409, notWaitingPage(kit.frame("Nothing to do here")), claims.returnUrl)
    return false
  }

  const show = async (
    ctx: Context,
    status: number,
    token: string,
    claims: HostedPageClaims,
    extra: { retyped?: Retyped; errors?: Record<string, string>; notice?: string; problem?: string } = {},
  ) => {
    const scope = scopeOf(claims)
    // The persons are read on their own: they can be added (through the API) before any onboarding is saved.
    const [onboarding, storedPersons, csrf] = await Promise.all([
      engine.onboardings.get(kit.actorOf(claims), scope.companyId, scope.entityId),
      engine.onboardings.allPersons(kit.actorOf(claims), scope.companyId, scope.entityId),
      engine.hostedPageTokens.csrfToken(claims),
    ])
    const { retyped } = extra
    const errors = extra.errors ?? {}
    /** A section's form: as typed when it was the one posted, else as stored, with the errors of its fields. */
    const filled = (form: "business" | "address", stored: Record<string, string>): FilledForm => ({
      values: retyped?.form === form ? retyped.values : stored,
      errors: retyped === undefined || retyped.form === form ? errors : {},
    })
    const persons: Array<PersonRow> = storedPersons.map((person) => {
      const mine = retyped?.form === "person" && retyped.personId === person.id ? retyped : undefined
      return {
        id: person.id,
        name: nameOf(person),
        values: mine?.values ?? personValues(person),
        roles: mine?.roles ?? person.roles,
        errors: mine === undefined ? {} : errors,
      }
    })
    const newPerson = retyped?.form === "new-person" ? retyped : undefined
    const view: EntityFeatureView = {
      token,
      csrf,
      pendingAction: claims.purpose === "pending_action",
      business: filled("business", businessValues(onboarding)),
      address: filled(
        "address",
        addressValues("business_address", onboarding?.business_details.business_address ?? null),
      ),
      persons,
      newPerson: {
        values: newPerson?.values ?? {},
        roles: newPerson?.roles ?? [],
        errors: newPerson === undefined ? {} : errors,
      },
      ...(retyped === undefined && errors.persons !== undefined ? { personsError: errors.persons } : {}),
      roles: personRoles.map((role) => ({ value: role, label: roleLabels[role] })),
      ...(extra.notice === undefined ? {} : { notice: extra.notice }),
      ...(extra.problem === undefined ? {} : { problem: extra.problem }),
      actions: paths,
    }
    const title = claims.purpose === "pending_action" ? "More information needed" : "Open your account"
    kit.render(ctx, status, entityFeaturePage(kit.frame(title), view), claims.returnUrl)
  }

  /** The checked form of a POST whose application still waits for it, or undefined once answered. */
  const checkedPost = async (ctx: Context) => {
    const checked = await kit.verifiedForm(ctx, purposes, paths.page)
    if (checked === undefined) return undefined
    if (!(await stillWaiting(ctx, checked.claims))) return undefined
    return checked
  }

  /**
   * Runs a section's save; on success back to the page with its notice, at its section. An
   * `Invalid` shows the page again (422) with the errors by the fields and what was typed kept;
   * a person no longer there (404) or an onboarding made read-only (403) says so on top.
   */
  const saveSection = async (
    ctx: Context,
    checked: { token: string; claims: HostedPageClaims },
    retyped: Retyped,
    save: () => Promise<unknown>,
    after: { notice: string; section: string },
  ) => {
    const { token, claims } = checked
    try {
      await save()
    } catch (error) {
      if (error instanceof Invalid) {
        await show(ctx, 422, token, claims, {
          retyped,
          errors: errorsByField(error),
          problem: "Please correct the fields marked below.",
        })
        return
      }
      if (error instanceof NotFound || error instanceof Forbidden) {
        await show(ctx, error instanceof NotFound ? 404 : 403, token, claims, { problem: error.message })
        return
      }
      throw error
    }
    kit.seeOther(
      ctx,
      `${kit.withToken(paths.page, token, { notice: after.notice })}#${after.section}`,
      claims.returnUrl,
    )
  }

  router.get(kit.route(paths.page), async (ctx) => {
    const token = queryToken(ctx)
    const claims = await kit.verified(ctx, token, purposes)
    if (claims === undefined || !(await stillWaiting(ctx, claims))) return
    const notice = typeof ctx.query.notice === "string" ? notices[ctx.query.notice] : undefined
    await show(ctx, 200, token, claims, notice === undefined ? {} : { notice })
  })

  // The business details and the business address: each a part of the onboarding, saved as the API's PATCH.
  const onboardingSections = [
    { path: paths.business, section: "business", fields: businessFields },
    { path: paths.address, section: "address", fields: addressFields },
  ] as const
  for (const { path, section, fields } of onboardingSections) {
    router.post(kit.route(path), async (ctx) => {
      const checked = await checkedPost(ctx)
      if (checked === undefined) return
      const { form, claims } = checked
      const values = typedValues(form, fields)
      const scope = scopeOf(claims)
      await saveSection(
        ctx,
        checked,
        { form: section, values },
        () => engine.onboardings.update(kit.actorOf(claims), scope.companyId, scope.entityId, nested(values)),
        { notice: section, section },
      )
    })
  }

  router.post(kit.route(paths.addPerson), async (ctx) => {
    const checked = await checkedPost(ctx)
    if (checked === undefined) return
    const { form, claims } = checked
    const values = typedValues(form, personFields)
    const roles = typedRoles(form)
    const scope = scopeOf(claims)
    await saveSection(
      ctx,
      checked,
      { form: "new-person", values, roles },
      () =>
        engine.onboardings.createPerson(
          kit.actorOf(claims),
          scope.companyId,
          scope.entityId,
          personBody(values, roles, true),
        ),
      { notice: "person-added", section: "people" },
    )
  })

  router.post(kit.route(paths.savePerson), async (ctx) => {
    const checked = await checkedPost(ctx)
    if (checked === undefined) return
    const { form, claims } = checked
    const personId = (form.get("person_id") ?? "").slice(0, 128)
    const values = typedValues(form, personFields)
    const roles = typedRoles(form)
    const scope = scopeOf(claims)
    await saveSection(
      ctx,
      checked,
      { form: "person", personId, values, roles },
      () =>
        engine.onboardings.updatePerson(
          kit.actorOf(claims),
          scope.companyId,
          scope.entityId,
          OnboardingPersonId.make(personId),
          personBody(values, roles, false),
        ),
      { notice: "person-saved", section: "people" },
    )
  })

  router.post(kit.route(paths.removePerson), async (ctx) => {
    const checked = await checkedPost(ctx)
    if (checked === undefined) return
    const { form, claims } = checked
    const personId = (form.get("person_id") ?? "").slice(0, 128)
    const scope = scopeOf(claims)
    await saveSection(
      ctx,
      checked,
      { form: "person", personId, values: {}, roles: [] },
      () =>
        engine.onboardings.deletePerson(
          kit.actorOf(claims),
          scope.companyId,
          scope.entityId,
          OnboardingPersonId.make(personId),
        ),
      { notice: "person-removed", section: "people" },
    )
  })

  // The one place the page submits the application; the submission uses the token up.
  router.post(kit.route(paths.submit), async (ctx) => {
    const checked = await checkedPost(ctx)
    if (checked === undefined) return
    const { token, claims } = checked
    try {
      await engine.features.submit(kit.actorOf(claims), scopeOf(claims), { usingToken: claims })
    } catch (error) {
      if (error instanceof Unauthenticated) {
        kit.unauthorized(ctx)
        return
      }
      if (error instanceof Invalid) {
        await show(ctx, 422, token, claims, {
          errors: errorsByField(error),
          problem: "Some details are still missing: complete and save the fields marked below, then submit again.",
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
    kit.render(ctx, 200, submittedPage(kit.frame("Application submitted")), claims.returnUrl)
  })
}
