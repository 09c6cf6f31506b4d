import type Router from "@koa/router"
import {
  CompanyId,
  type HostedPageClaims,
  payableCurrencyCodes,
  RecipientId,
  type RequirementField,
} from "@payments-engine/core"
import { Invalid, NotFound, ProviderFailure, Unauthenticated } from "@payments-engine/core/effect"
import type { Context } from "koa"
import type { AppState } from "../app-state.ts"
import { countryChoices, countryName } from "./countries.ts"
import { errorsByField, type HostedKit, queryToken } from "./kit.ts"
import { messagePage } from "./views/frame.ts"
import {
  addedPage,
  type Choice,
  choosePage,
  choosePaths,
  type DetailsView,
  detailsPage,
} from "./views/recipient-bank-account.ts"

/**
 * `/recipient/add-bank-account` (spec "Recipients", DECISIONS "Hosted pages"): the holder of a
 * `recipient_add_bank_account` token adds a bank account for that token's recipient. First the
 * bank country, currency and transfer method; then the payment provider's requirement fields
 * (`engine.paymentMethods.requirements`, as the API's requirements endpoint); a field marked
 * `refresh` posts the form to `/refresh` to get it back for the new choice with what was typed
 * kept; saving calls `engine.bankAccounts.createForRecipient`, as the API does, and uses the token
 * up: from then on only the done page takes it.
 */

const purposes = ["recipient_add_bank_account"] as const

/** The longest value read from one field: more than any requirement allows, short of a huge page. */
const longestValue = 500

const currencyNames = new Intl.DisplayNames(["en"], { type: "currency" })

/** The first step's currencies, by code and name; built once (the bank countries are the provider's, asked each time). */
const currencies: ReadonlyArray<Choice> = payableCurrencyCodes().map((code) => ({
  value: code,
  label: `${code} – ${currencyNames.of(code) ?? code}`,
}))
/** The transfer methods the spec names (LOCAL or SWIFT); the provider refuses one a country lacks. */
const transferMethods: ReadonlyArray<Choice> = [
  { value: "LOCAL", label: "Local bank transfer" },
  { value: "SWIFT", label: "International wire (SWIFT)" },
]

/** Where the requirements' parameters (named as the requirements endpoint names them) sit in the form. */
const pathOfParameter: Readonly<Record<string, string>> = {
  country_code: choosePaths.country,
  currency_code: choosePaths.currency,
  transfer_method: choosePaths.transferMethod,
  entity_type: "entity_type",
  local_clearing_system: "bank_details.local_clearing_system",
}

/** The most fields carried from the second step back through the first: more than any schema has. */
const carriedFields = 60

/** The value of one form field as typed, at most {@link longestValue} characters. */
const typedValue = (form: URLSearchParams, path: string) => (form.get(path) ?? "").slice(0, longestValue)

/** The requirements query of a posted form: its country, currency, recipient type and transfer choices. */
const requirementsQueryOf = (form: URLSearchParams) => ({
  country_code: typedValue(form, choosePaths.country),
  currency_code: typedValue(form, choosePaths.currency),
  entity_type: typedValue(form, "entity_type") || "COMPANY",
  transfer_method: typedValue(form, choosePaths.transferMethod),
  local_clearing_system: typedValue(form, "bank_details.local_clearing_system"),
})

/** Every field of a schema the form has, as typed, by path; a field it lacks shows its default. */
const typedValues = (form: URLSearchParams, fields: ReadonlyArray<RequirementField>) =>
  Object.fromEntries(
    fields.filter((field) => form.has(field.path)).map((field) => [field.path, typedValue(form, field.path)]),
  )

/** A key a path may not set on a plain object. */
const unsafeKey = (key: string) => key === "__proto__" || key === "constructor" || key === "prototype"

/**
 * `beneficiary_details` from the typed values: each enabled field's value at its `path` (trimmed,
 * blanks left out so the engine says "is required"), the transfer method as a one-item list.
 */
const beneficiaryDetailsOf = (values: Readonly<Record<string, string>>, fields: ReadonlyArray<RequirementField>) => {
  const details: Record<string, unknown> = {}
  for (const field of fields) {
    const value = (values[field.path] ?? "").trim()
    const keys = field.path.split(".")
    if (!field.enabled || value === "" || keys.some(unsafeKey)) continue
    let node = details
    for (const key of keys.slice(0, -1)) {
      if (typeof node[key] !== "object" || node[key] === null) node[key] = {}
      node = node[key] as Record<string, unknown>
    }
    node[keys.at(-1)!] = field.field.type === "TRANSFER_METHOD" ? [value] : value
  }
  return details
}

/**
 * Errors of the engine by the field path they belong to (`beneficiary_details.` dropped), as
 * `messageAt` words them; an error it has no field for (the provider's refusal on `base`) goes on top.
 */
const placeErrors = (error: Invalid, messageAt: (path: string, message: string) => string | undefined) => {
  const errors: Record<string, string> = {}
  const problems: Array<string> = []
  for (const [field, message] of Object.entries(errorsByField(error))) {
    const path = pathOfParameter[field] ?? field.replace(/^beneficiary_details\./, "")
    const placed = messageAt(path, message)
    if (placed !== undefined) errors[path] = placed
    else problems.push(field === "base" ? namedCountries(message) : `${path} ${message}`)
  }
  return { errors, problems }
}

/** A provider's message with its country codes ("Bank country US") as names ("Bank country United States"). */
const namedCountries = (message: string) =>
  message.replace(
    /\b(bank country) ([A-Z]{2})\b/gi,
    (_whole, words: string, code: string) => `${words} ${countryName(code)}`,
  )

/** What the first step says of a choice the engine refused: the choice to make, whatever the refusal. */
const chooseMessages: Readonly<Record<string, string>> = {
  [choosePaths.country]: "Choose the country of the bank",
  [choosePaths.currency]: "Choose the currency of the account",
  [choosePaths.transferMethod]: "Choose how the money is sent",
}

/** A requirement field's error as a sentence: its label, then the engine's message ("City is required"). */
const labelledMessages = (fields: ReadonlyArray<RequirementField>) => {
  const labels = new Map(fields.map((field) => [field.path, field.field.label]))
  return (path: string, message: string) => {
    const label = labels.get(path)
    return label === undefined ? undefined : `${label} ${message}`
  }
}

const providerDown =
  "The bank details service cannot be reached just now. Nothing was saved; please try again in a moment."

/** Registers the routes of `/recipient/add-bank-account` on the hosted pages' router. */
export const recipientBankAccountRoutes = (router: Router<AppState>, kit: HostedKit): void => {
  const { engine } = kit
  const paths = {
    page: kit.path("/recipient/add-bank-account"),
    details: kit.path("/recipient/add-bank-account/details"),
    refresh: kit.path("/recipient/add-bank-account/refresh"),
    save: kit.path("/recipient/add-bank-account/save"),
    restart: kit.path("/recipient/add-bank-account/restart"),
    done: kit.path("/recipient/add-bank-account/done"),
  }
  const frame = (ctx: Context) => kit.frame(ctx, "Add a bank account")

  /** The token's recipient's name, or undefined once a 404 page says it is gone. */
  const recipientNameOf = async (ctx: Context, claims: HostedPageClaims) => {
    try {
      const recipient = await engine.recipients.get(
        kit.actorOf(claims),
        CompanyId.make(claims.companyId),
        RecipientId.make(claims.recipientId ?? ""),
      )
      return recipient.name
    } catch (error) {
      if (!(error instanceof NotFound)) throw error
      const text = "This recipient no longer exists. Please ask for a new link from the service that sent you here."
      kit.render(ctx, 404, messagePage(frame(ctx), "This recipient is not available", text), claims.returnUrl)
      return undefined
    }
  }

  /** The bank countries the payment provider pays to, or undefined when it cannot be reached. */
  const bankCountriesOf = async (claims: HostedPageClaims) => {
    try {
      return await engine.paymentMethods.bankCountries(kit.actorOf(claims))
    } catch (error) {
      if (error instanceof ProviderFailure) return undefined
      throw error
    }
  }

  /** Renders the first step, its bank countries the provider's. */
  const showChoose = async (
    ctx: Context,
    status: number,
    session: { token: string; claims: HostedPageClaims; recipientName: string },
    extra: {
      values?: Record<string, string>
      errors?: Record<string, string>
      problems?: ReadonlyArray<string>
      carried?: ReadonlyArray<readonly [string, string]>
    } = {},
  ) => {
    const [csrf, bankCountries] = await Promise.all([
      engine.hostedPageTokens.csrfToken(session.claims),
      bankCountriesOf(session.claims),
    ])
    const problems = extra.problems ?? []
    const page = choosePage(frame(ctx), {
      token: session.token,
      csrf,
      recipientName: session.recipientName,
      carried: extra.carried ?? [],
      countries: countryChoices(bankCountries ?? []),
      currencies,
      transferMethods,
      values: extra.values ?? {},
      errors: extra.errors ?? {},
      problems:
        bankCountries === undefined && !problems.includes(providerDown) ? [...problems, providerDown] : problems,
      action: paths.details,
    })
    kit.render(ctx, bankCountries === undefined ? 503 : status, page, session.claims.returnUrl)
  }

  /** A checked POST of this page: its form, token, claims and recipient's name. */
  type Session = { token: string; claims: HostedPageClaims; recipientName: string; form: URLSearchParams }

  /**
   * The requirement fields for a posted form's choices; else the first step is rendered again with
   * the engine's errors (422) when the provider refuses the choices, or a message (503) when it
   * cannot be reached, and undefined returned.
   */
  const fieldsOrFirstStep = async (ctx: Context, posted: Session) => {
    const country = typedValue(posted.form, choosePaths.country).toUpperCase()
    const bankCountries = await bankCountriesOf(posted.claims)
    if (country !== "" && bankCountries !== undefined && !bankCountries.includes(country)) {
      const values = Object.fromEntries(Object.values(choosePaths).map((path) => [path, typedValue(posted.form, path)]))
      const message = `Payments cannot be sent to banks in ${countryName(country)}: choose a country from the list`
      await showChoose(ctx, 422, posted, { values, errors: { [choosePaths.country]: message } })
      return undefined
    }
    try {
      const query = requirementsQueryOf(posted.form)
      return (await engine.paymentMethods.requirements(kit.actorOf(posted.claims), query)).fields
    } catch (error) {
      const values = Object.fromEntries(Object.values(choosePaths).map((path) => [path, typedValue(posted.form, path)]))
      if (error instanceof Invalid) {
        await showChoose(ctx, 422, posted, { values, ...placeErrors(error, (path) => chooseMessages[path]) })
        return undefined
      }
      if (error instanceof ProviderFailure) {
        await showChoose(ctx, 503, posted, { values, problems: [providerDown] })
        return undefined
      }
      throw error
    }
  }

  /** Renders the requirement fields with the posted values, and the errors of a refused save. */
  const showDetails = async (
    ctx: Context,
    status: number,
    posted: Session,
    fields: ReadonlyArray<RequirementField>,
    outcome: Pick<DetailsView, "errors" | "problems"> = { errors: {}, problems: [] },
  ) => {
    const csrf = await engine.hostedPageTokens.csrfToken(posted.claims)
    const page = detailsPage(frame(ctx), {
      token: posted.token,
      csrf,
      recipientName: posted.recipientName,
      fields,
      values: typedValues(posted.form, fields),
      ...outcome,
      actions: { save: paths.save, refresh: paths.refresh, restart: paths.restart },
    })
    kit.render(ctx, status, page, posted.claims.returnUrl)
  }

  /** A checked POST of this page with its recipient's name, or undefined once an error page is rendered. */
  const session = async (ctx: Context): Promise<Session | undefined> => {
    const checked = await kit.verifiedForm(ctx, purposes, paths.page)
    if (checked === undefined) return undefined
    const recipientName = await recipientNameOf(ctx, checked.claims)
    return recipientName === undefined ? undefined : { ...checked, recipientName }
  }

  router.get(kit.route(paths.page), async (ctx) => {
    const token = queryToken(ctx)
    const claims = await kit.verified(ctx, token, purposes, {
      // The link opened again after the account was added says so, not that the link is bad.
      whenUsed: async (used) => {
        const recipientName = await recipientNameOf(ctx, used)
        if (recipientName === undefined) return
        kit.render(ctx, 200, addedPage(kit.frame(ctx, "Bank account added"), recipientName, true), used.returnUrl)
      },
    })
    if (claims === undefined) return
    const recipientName = await recipientNameOf(ctx, claims)
    if (recipientName === undefined) return
    await showChoose(ctx, 200, { token, claims, recipientName })
  })

  /** The fields form for the first step's choices, or for a refresh field's new value, with what was typed kept. */
  const showFields = async (ctx: Context) => {
    const posted = await session(ctx)
    if (posted === undefined) return
    const fields = await fieldsOrFirstStep(ctx, posted)
    if (fields !== undefined) await showDetails(ctx, 200, posted, fields)
  }
  router.post(kit.route(paths.details), showFields)
  // Back to the first step from the second: what was typed there rides along, and comes back in
  // each field the new choice's form still has.
  router.post(kit.route(paths.restart), async (ctx) => {
    const posted = await session(ctx)
    if (posted === undefined) return
    // Not the first step's own choices, nor the old country's clearing system, which the new one would refuse.
    const chosen = new Set<string>([
      ...Object.values(choosePaths),
      "bank_details.local_clearing_system",
      "token",
      "csrf",
    ])
    const carried = [...posted.form.entries()]
      .filter(([name]) => !chosen.has(name) && name.length <= 200)
      .slice(0, carriedFields)
      .map(([name, value]) => [name, value.slice(0, longestValue)] as const)
    const values = Object.fromEntries(Object.values(choosePaths).map((path) => [path, typedValue(posted.form, path)]))
    await showChoose(ctx, 200, posted, { values, carried })
  })
  router.post(kit.route(paths.refresh), showFields)

  router.post(kit.route(paths.save), async (ctx) => {
    const posted = await session(ctx)
    if (posted === undefined) return
    const fields = await fieldsOrFirstStep(ctx, posted)
    if (fields === undefined) return
    const { claims, form } = posted
    try {
      // The one call that adds the account: the same use case as POST .../recipients/{id}/bank_accounts,
      // using the token up in the same transaction.
      await engine.bankAccounts.createForRecipient(
        kit.actorOf(claims),
        CompanyId.make(claims.companyId),
        RecipientId.make(claims.recipientId ?? ""),
        { entity_id: claims.entityId, beneficiary_details: beneficiaryDetailsOf(typedValues(form, fields), fields) },
        { usingToken: claims },
      )
    } catch (error) {
      if (error instanceof Unauthenticated) {
        kit.unauthorized(ctx)
        return
      }
      if (error instanceof Invalid) {
        await showDetails(ctx, 422, posted, fields, placeErrors(error, labelledMessages(fields)))
        return
      }
      if (error instanceof ProviderFailure) {
        await showDetails(ctx, 503, posted, fields, { errors: {}, problems: [providerDown] })
        return
      }
      if (error instanceof NotFound) {
        const text = "This recipient no longer exists. Nothing was saved."
        kit.render(ctx, 404, messagePage(frame(ctx), "This recipient is not available", text), claims.returnUrl)
        return
      }
      throw error
    }
    kit.seeOther(ctx, claims.returnUrl ?? kit.withToken(paths.done, posted.token), claims.returnUrl)
  })

  router.get(kit.route(paths.done), async (ctx) => {
    const claims = await kit.usedUpClaims(ctx, purposes, paths.page)
    if (claims === undefined) return
    const recipientName = await recipientNameOf(ctx, claims)
    if (recipientName === undefined) return
    kit.render(ctx, 200, addedPage(kit.frame(ctx, "Bank account added"), recipientName, false), claims.returnUrl)
  })
}
