import type { VNode } from "preact"
import { type Child, html } from "../html.ts"
import { describedBy, type Frame, fieldError, hiddenFields, layout } from "./frame.ts"

/** One text input of a form: its name (the engine's field path), its label, and how it is typed. */
export interface TextField {
  readonly name: string
  readonly label: string
  readonly type?: "text" | "email" | "date" | "url" | "tel"
  readonly autocomplete?: string
  readonly hint?: string
  readonly maxlength: number
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

/** Everything the entity-feature page shows. */
export interface EntityFeatureView {
  readonly token: string
  readonly csrf: string
  /** `pending_action`: the application came back for more information. */
  readonly pendingAction: boolean
  readonly business: FilledForm
  readonly address: FilledForm
  readonly persons: ReadonlyArray<PersonRow>
  readonly newPerson: FilledForm & { readonly roles: ReadonlyArray<string> }
  /** Errors of the final submit about the people (no person yet). */
  readonly personsError?: string
  /** The person roles the engine knows, with their labels. */
  readonly roles: ReadonlyArray<{ readonly value: string; readonly label: string }>
  readonly notice?: string
  readonly problem?: string
  readonly actions: {
    readonly business: string
    readonly address: string
    readonly addPerson: string
    readonly savePerson: string
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
  { name: "business_address.line1", label: "Address line 1", autocomplete: "address-line1", maxlength: 255 },
  { name: "business_address.line2", label: "Address line 2 (optional)", autocomplete: "address-line2", maxlength: 255 },
  { name: "business_address.city", label: "City", autocomplete: "address-level2", maxlength: 255 },
  { name: "business_address.state", label: "State", autocomplete: "address-level1", maxlength: 255 },
  { name: "business_address.postal_code", label: "ZIP or postal code", autocomplete: "postal-code", maxlength: 32 },
  {
    name: "business_address.country_alpha2",
    label: "Country",
    hint: "Two-letter code, for example US",
    autocomplete: "country",
    maxlength: 2,
  },
]

/** A person form's fields. */
export const personFields: ReadonlyArray<TextField> = [
  { name: "first_name", label: "First name", autocomplete: "given-name", maxlength: 100 },
  { name: "last_name", label: "Last name", autocomplete: "family-name", maxlength: 100 },
  { name: "email", label: "E-mail", type: "email", autocomplete: "email", maxlength: 254 },
  { name: "date_of_birth", label: "Date of birth", type: "date", autocomplete: "bday", maxlength: 10 },
  { name: "nationality", label: "Nationality", hint: "Two-letter country code, for example US", maxlength: 2 },
  { name: "job_title", label: "Job title", autocomplete: "organization-title", maxlength: 255 },
]

/** The id of a field's input: its name made an id, after the form's `prefix`. */
const idOf = (prefix: string, name: string) => `${prefix}${name.replace(/\./g, "-")}`

/** One labelled input, its hint and its error. */
const input = (prefix: string, field: TextField, form: FilledForm): VNode => {
  const id = idOf(prefix, field.name)
  const error = form.errors[field.name]
  const hintId = field.hint === undefined ? undefined : `${id}-hint`
  const described = [hintId, describedBy(id, error)].filter((part) => part !== undefined).join(" ")
  return html`<div class="field">
    <label for=${id}>${field.label}</label>
    ${field.hint === undefined ? null : html`<p class="hint" id=${hintId}>${field.hint}</p>`}
    <input id=${id} name=${field.name} type=${field.type ?? "text"} autocomplete=${field.autocomplete ?? "off"} maxlength=${field.maxlength} value=${form.values[field.name] ?? ""} aria-invalid=${error === undefined ? undefined : "true"} aria-describedby=${described === "" ? undefined : described} />
    ${fieldError(id, error)}
  </div>` as VNode
}

/** The role checkboxes of a person form. */
const roleBoxes = (
  prefix: string,
  view: EntityFeatureView,
  ticked: ReadonlyArray<string>,
  error: string | undefined,
): VNode =>
  html`<fieldset class="roles" aria-describedby=${describedBy(`${prefix}roles`, error)}>
    <legend>Roles</legend>
    ${view.roles.map(
      (role) => html`<div class="check" key=${role.value}>
        <input type="checkbox" id=${`${prefix}role-${role.value}`} name="roles" value=${role.value} checked=${ticked.includes(role.value)} />
        <label for=${`${prefix}role-${role.value}`}>${role.label}</label>
      </div>`,
    )}
    ${fieldError(`${prefix}roles`, error)}
  </fieldset>` as VNode

/** A person's form fields: the inputs and the roles. */
const personInputs = (
  prefix: string,
  view: EntityFeatureView,
  form: FilledForm & { readonly roles: ReadonlyArray<string> },
): Child => [
  ...personFields.map((field) => input(prefix, field, form)),
  roleBoxes(prefix, view, form.roles, form.errors.roles),
]

/** A section's form, posting to `action` with its own Save button. */
const sectionForm = (view: EntityFeatureView, action: string, label: string, body: Child): VNode =>
  html`<form method="post" action=${action} novalidate>
    ${hiddenFields(view.token, view.csrf)} ${body}
    <button type="submit">${label}</button>
  </form>` as VNode

/** The entity-feature page: business, address and people, each saved on its own, then the final Submit. */
export const entityFeaturePage = (frame: Frame, view: EntityFeatureView): VNode => {
  const { actions } = view
  const people = view.persons.map(
    (person) => html`<details class="person" key=${person.id} open=${Object.keys(person.errors).length > 0}>
      <summary><span class="person-name">${person.name}</span><span class="summary-action" aria-hidden="true">Edit</span></summary>
      ${sectionForm(view, actions.savePerson, "Save person", [
        html`<input type="hidden" name="person_id" value=${person.id} />`,
        personInputs(`person-${person.id}-`, view, person),
      ])}
      <form class="inline" method="post" action=${actions.removePerson}>
        ${hiddenFields(view.token, view.csrf)}
        <input type="hidden" name="person_id" value=${person.id} />
        <button type="submit" class="secondary">Remove<span class="visually-hidden"> ${person.name}</span></button>
      </form>
    </details>`,
  )
  return layout(
    frame,
    html`<h1>${view.pendingAction ? "More information needed" : "Open your multi-currency account"}</h1>
      ${
        view.pendingAction
          ? html`<p class="problem" role="note">
              Your application was reviewed and more information is needed. Check every section below, correct or
              complete what is missing, save it, then submit again.
            </p>`
          : html`<p>Tell us about your business and the people behind it. Each section is saved on its own; submit when all is done.</p>`
      }
      ${view.notice === undefined ? null : html`<p class="notice" role="status">${view.notice}</p>`}
      ${view.problem === undefined ? null : html`<p class="problem" role="alert">${view.problem}</p>`}
      <section id="business" aria-labelledby="business-heading">
        <h2 id="business-heading">1. Business details</h2>
        ${sectionForm(
          view,
          actions.business,
          "Save business details",
          businessFields.map((field) => input("", field, view.business)),
        )}
      </section>
      <section id="address" aria-labelledby="address-heading">
        <h2 id="address-heading">2. Business address</h2>
        ${sectionForm(
          view,
          actions.address,
          "Save address",
          addressFields.map((field) => input("", field, view.address)),
        )}
      </section>
      <section id="people" aria-labelledby="people-heading">
        <h2 id="people-heading">3. People</h2>
        <p>Owners, directors and anyone who can act for the business.</p>
        ${fieldError("persons", view.personsError)}
        ${view.persons.length === 0 ? html`<p>No person added yet.</p>` : people}
        <h3>Add a person</h3>
        ${sectionForm(view, actions.addPerson, "Add person", personInputs("new-", view, view.newPerson))}
      </section>
      <section id="submit" aria-labelledby="submit-heading">
        <h2 id="submit-heading">4. Submit</h2>
        <p>Save each section first: only saved details are sent.</p>
        <form method="post" action=${actions.submit}>
          ${hiddenFields(view.token, view.csrf)}
          <button type="submit">${view.pendingAction ? "Submit again" : "Submit application"}</button>
        </form>
      </section>`,
  )
}

/** The page after the final submit when the token has no return URL. */
export const submittedPage = (frame: Frame): VNode =>
  layout(
    frame,
    html`<h1>Application submitted</h1><p>Thank you. Your application is being reviewed; you can close this page.</p>`,
  )

/** The page of a token whose application is no longer waiting for this step. */
export const notWaitingPage = (frame: Frame): VNode =>
  layout(
    frame,
    html`<h1>Nothing to do here</h1>
      <p>This application is not waiting for this step any more: it may already have been submitted.</p>
      <p>If something still needs doing, ask for a new link from the service that sent you here.</p>`,
  )
