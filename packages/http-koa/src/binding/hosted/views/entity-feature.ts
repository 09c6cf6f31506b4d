import type { VNode } from "preact"
import { type Child, html } from "../html.ts"
import {
  type Choice,
  describedBy,
  type Frame,
  fieldError,
  hiddenFields,
  layout,
  requiredMark,
  requiredNote,
} from "./frame.ts"

/** One text input of a form: its name (the engine's field path), its label, and how it is typed. */
export interface TextField {
  readonly name: string
  readonly label: string
  readonly type?: "text" | "email" | "date" | "url" | "tel"
  readonly autocomplete?: string
  readonly hint?: string
  readonly maxlength: number
  /** Submitting the application needs it. */
  readonly required?: boolean
  /** A country, chosen from the list by name. */
  readonly country?: boolean
}

/** A form of the page with its values: as stored, or as typed when it is shown again with errors. */
export interface FilledForm {
  readonly values: Readonly<Record<string, string>>
  /** Errors of this form, by field name. */
  readonly errors: Readonly<Record<string, string>>
}

/** A person of the onboarding as the page lists it, with the values of its edit form. */
export interface PersonRow extends FilledForm {
  readonly id: string
  readonly name: string
  /** The roles ticked on its edit form. */
  readonly roles: ReadonlyArray<string>
}

/** Everything the entity-feature page shows: one form, so whatever button is pressed sends all that was typed. */
export interface EntityFeatureView {
  readonly token: string
  readonly csrf: string
  /** `pending_action`: the application came back for more information. */
  readonly pendingAction: boolean
  /** The business details and address, by field name. */
  readonly onboarding: FilledForm
  readonly persons: ReadonlyArray<PersonRow>
  readonly newPerson: FilledForm & { readonly roles: ReadonlyArray<string> }
  /** Errors of the final submit about the people (no person yet). */
  readonly personsError?: string
  /** The person roles the engine knows, with their labels. */
  readonly roles: ReadonlyArray<Choice>
  /** The countries of the address and nationality selects, by name. */
  readonly countries: ReadonlyArray<Choice>
  readonly notice?: string
  readonly problem?: string
  readonly actions: {
    /** Saves everything typed: the default of the form and every section's Save and Add. */
    readonly save: string
    readonly removePerson: string
    readonly submit: string
  }
}

/** The business section's fields. */
export const businessFields: ReadonlyArray<TextField> = [
  {
    name: "business_details.business_name",
    label: "Legal business name",
    autocomplete: "organization",
    maxlength: 255,
    required: true,
  },
  { name: "business_details.business_name_trading", label: "Trading name (if different)", maxlength: 255 },
  {
    name: "business_details.business_structure",
    label: "Business structure",
    hint: "For example LLC, corporation, sole proprietorship",
    maxlength: 100,
  },
  { name: "business_details.business_start_date", label: "Date the business started", type: "date", maxlength: 10 },
  { name: "business_details.website_url", label: "Website", type: "url", autocomplete: "url", maxlength: 2048 },
  { name: "business_details.contact_phone", label: "Business phone", type: "tel", autocomplete: "tel", maxlength: 32 },
  { name: "primary_contact.email", label: "Contact e-mail", type: "email", autocomplete: "email", maxlength: 254 },
]

/** The business address section's fields. */
export const addressFields: ReadonlyArray<TextField> = [
  {
    name: "business_address.line1",
    label: "Address line 1",
    autocomplete: "address-line1",
    maxlength: 255,
    required: true,
  },
  { name: "business_address.line2", label: "Address line 2 (optional)", autocomplete: "address-line2", maxlength: 255 },
  { name: "business_address.city", label: "City", autocomplete: "address-level2", maxlength: 255, required: true },
  { name: "business_address.state", label: "State", autocomplete: "address-level1", maxlength: 255 },
  {
    name: "business_address.postal_code",
    label: "ZIP or postal code",
    autocomplete: "postal-code",
    maxlength: 32,
    required: true,
  },
  {
    name: "business_address.country_alpha2",
    label: "Country",
    autocomplete: "country",
    maxlength: 2,
    required: true,
    country: true,
  },
]

/** A person form's fields. */
export const personFields: ReadonlyArray<TextField> = [
  { name: "first_name", label: "First name", autocomplete: "given-name", maxlength: 100 },
  { name: "last_name", label: "Last name", autocomplete: "family-name", maxlength: 100 },
  { name: "email", label: "E-mail", type: "email", autocomplete: "email", maxlength: 254 },
  { name: "date_of_birth", label: "Date of birth", type: "date", autocomplete: "bday", maxlength: 10 },
  { name: "nationality", label: "Nationality", maxlength: 2, country: true },
  { name: "job_title", label: "Job title", autocomplete: "organization-title", maxlength: 255 },
]

/** The prefix of the names of the new person's fields. */
export const newPersonPrefix = "new."

/** The prefix of the names of a listed person's fields. */
export const personPrefix = (id: string) => `person.${id}.`

/** The id of an input named `name`: its dots as dashes. */
const idOf = (name: string) => name.replace(/\./g, "-")

/**
 * One labelled input, its hint and its error; a country is a select of the countries by name.
 * `prefix` is put before the field's name (a listed person's fields are `person.<id>.`).
 */
const input = (view: EntityFeatureView, prefix: string, field: TextField, form: FilledForm): VNode => {
  const name = `${prefix}${field.name}`
  const id = idOf(name)
  const error = form.errors[field.name]
  const value = form.values[field.name] ?? ""
  const hintId = field.hint === undefined ? undefined : `${id}-hint`
  const described = [hintId, describedBy(id, error)].filter((part) => part !== undefined).join(" ")
  const invalid = error === undefined ? undefined : "true"
  const describedIds = described === "" ? undefined : described
  const known = view.countries.some((country) => country.value === value)
  const control = field.country
    ? html`<select id=${id} name=${name} autocomplete=${field.autocomplete ?? "off"} aria-invalid=${invalid} aria-describedby=${describedIds}>
        <option value="" selected=${value === ""}>Choose a country</option>
        ${known || value === "" ? null : html`<option value=${value} selected>${value}</option>`}
        ${view.countries.map((country) => html`<option value=${country.value} selected=${country.value === value}>${country.label}</option>`)}
      </select>`
    : html`<input id=${id} name=${name} type=${field.type ?? "text"} autocomplete=${field.autocomplete ?? "off"} maxlength=${field.maxlength} value=${value} aria-invalid=${invalid} aria-describedby=${describedIds} />`
  return html`<div class="field">
    <label for=${id}>${field.label} ${requiredMark(field.required === true)}</label>
    ${field.hint === undefined ? null : html`<p class="hint" id=${hintId}>${field.hint}</p>`}
    ${control}
    ${fieldError(id, error)}
  </div>` as VNode
}

/** The role checkboxes of a person's fields. */
const roleBoxes = (
  view: EntityFeatureView,
  prefix: string,
  ticked: ReadonlyArray<string>,
  error: string | undefined,
): VNode => {
  const id = idOf(`${prefix}roles`)
  return html`<fieldset class="roles" aria-describedby=${describedBy(id, error)}>
    <legend>Roles</legend>
    ${view.roles.map(
      (role) => html`<div class="check" key=${role.value}>
        <input type="checkbox" id=${`${id}-${role.value}`} name=${`${prefix}roles`} value=${role.value} checked=${ticked.includes(role.value)} />
        <label for=${`${id}-${role.value}`}>${role.label}</label>
      </div>`,
    )}
    ${fieldError(id, error)}
  </fieldset>` as VNode
}

/** A person's fields: the inputs and the roles. */
const personInputs = (
  view: EntityFeatureView,
  prefix: string,
  form: FilledForm & { readonly roles: ReadonlyArray<string> },
): Child => [
  ...personFields.map((field) => input(view, prefix, field, form)),
  roleBoxes(view, prefix, form.roles, form.errors.roles),
]

/** A button of the one form; `action` when it posts elsewhere than the form's save. */
const button = (label: Child, options: { action?: string; name?: string; value?: string; secondary?: boolean } = {}) =>
  html`<button type="submit" class=${options.secondary ? "secondary" : undefined} formaction=${options.action} name=${options.name} value=${options.value}>${label}</button>` as VNode

/** "Save" with what it is next to for a screen reader ("Save business details"). */
const saveButton = (what: string, section: string) =>
  button(["Save", html`<span class="visually-hidden"> ${what}</span>`], { name: "section", value: section })

/** The entity-feature page: business, address and people in one form, any of whose buttons saves all that was typed, then the final Submit. */
export const entityFeaturePage = (frame: Frame, view: EntityFeatureView): VNode => {
  const { actions } = view
  const people = view.persons.map(
    (person) => html`<details class="person" key=${person.id} open=${Object.keys(person.errors).length > 0}>
      <summary><span class="person-name">${person.name}</span><span class="summary-action" aria-hidden="true">Edit</span></summary>
      ${personInputs(view, personPrefix(person.id), person)}
      <div class="actions">
        ${saveButton(person.name, "people")}
        ${button(["Remove", html`<span class="visually-hidden"> ${person.name}</span>`], { action: actions.removePerson, name: "person_id", value: person.id, secondary: true })}
      </div>
    </details>`,
  )
  return layout(
    frame,
    html`<h1>${view.pendingAction ? "More information needed" : "Open your multi-currency account"}</h1>
      ${
        view.pendingAction
          ? html`<p class="problem" role="note">
              Your application was reviewed and more information is needed. Check every section below, correct or
              complete what is missing, then submit again.
            </p>`
          : html`<p>Tell us about your business and the people behind it. Save as you go; nothing you type is lost whatever you press. Submit when all is done.</p>`
      }
      ${requiredNote()}
      ${view.notice === undefined ? null : html`<p class="notice" role="status">${view.notice}</p>`}
      ${view.problem === undefined ? null : html`<p class="problem" role="alert">${view.problem}</p>`}
      <form method="post" action=${actions.save} novalidate>
        <button type="submit" class="default-submit" tabindex="-1" aria-hidden="true">Save</button>
        ${hiddenFields(view.token, view.csrf)}
        <section id="business" aria-labelledby="business-heading">
          <h2 id="business-heading">1. Business details</h2>
          ${businessFields.map((field) => input(view, "", field, view.onboarding))}
          ${saveButton("business details", "business")}
        </section>
        <section id="address" aria-labelledby="address-heading">
          <h2 id="address-heading">2. Business address</h2>
          ${addressFields.map((field) => input(view, "", field, view.onboarding))}
          ${saveButton("address", "address")}
        </section>
        <section id="people" aria-labelledby="people-heading">
          <h2 id="people-heading">3. People <abbr class="required" title="required">*</abbr></h2>
          <p>Owners, directors and anyone who can act for the business: at least one.</p>
          ${fieldError("persons", view.personsError)}
          ${view.persons.length === 0 ? html`<p>No person added yet.</p>` : people}
          <h3>Add a person</h3>
          ${personInputs(view, newPersonPrefix, view.newPerson)}
          ${button("Add person", { name: "section", value: "people" })}
        </section>
        <section id="submit" aria-labelledby="submit-heading">
          <h2 id="submit-heading">4. Submit</h2>
          <p>Submitting saves what you typed, then sends the application.</p>
          ${button(view.pendingAction ? "Submit again" : "Submit application", { action: actions.submit })}
        </section>
      </form>`,
  )
}

/** The page after the final submit when the token has no return URL, and of its link opened `again` after. */
export const submittedPage = (frame: Frame, again: boolean): VNode =>
  layout(
    frame,
    html`<h1>Application submitted</h1>
      <p>${again ? "This application was already submitted with this link: nothing more is needed here." : "Thank you."} Your application is being reviewed; you can close this page.</p>`,
  )

/** The page of a token whose application is no longer waiting for this step. */
export const notWaitingPage = (frame: Frame): VNode =>
  layout(
    frame,
    html`<h1>Nothing to do here</h1>
      <p>This application is not waiting for this step any more: it may already have been submitted.</p>
      <p>If something still needs doing, ask for a new link from the service that sent you here.</p>`,
  )
