import type { RequirementField } from "@payments-engine/core"
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

/**
 * The views of `/recipient/add-bank-account`: the first step (bank country, currency, transfer
 * method), then the provider's requirement fields as a form. Inputs are named by the field's
 * `path` inside `beneficiary_details`; their ids are {@link fieldId} of it.
 */

export type { Choice } from "./frame.ts"

/** What both steps show around their form. */
interface StepView {
  readonly token: string
  readonly csrf: string
  readonly recipientName: string
  /** The values as typed, by field path. */
  readonly values: Readonly<Record<string, string>>
  /** Errors by field path. */
  readonly errors: Readonly<Record<string, string>>
  /** Problems not about one field (the provider's refusal, an unreachable provider), shown on top. */
  readonly problems: ReadonlyArray<string>
}

/** The first step: where the bank is, the currency, and how money is sent. */
export interface ChooseView extends StepView {
  /** What was typed in the fields of the second step, carried through this one as hidden fields. */
  readonly carried: ReadonlyArray<readonly [string, string]>
  readonly countries: ReadonlyArray<Choice>
  readonly currencies: ReadonlyArray<Choice>
  readonly transferMethods: ReadonlyArray<Choice>
  readonly action: string
}

/** The second step: the provider's requirement fields. */
export interface DetailsView extends StepView {
  readonly fields: ReadonlyArray<RequirementField>
  readonly actions: {
    /** Where the form is sent to add the account. */
    readonly save: string
    /** Where a field with `refresh` sends the form to get it back for the new choice. */
    readonly refresh: string
    /** The first step again, with what was typed carried along. */
    readonly restart: string
  }
}

/** The paths the first step asks for: the same names the requirement fields give them. */
export const choosePaths = {
  country: "bank_details.bank_country_code",
  currency: "bank_details.account_currency",
  transferMethod: "transfer_methods",
} as const

/** The id of the input of a field path: its dots as dashes ("bank_details-account_number"). */
export const fieldId = (path: string) => path.replace(/\./g, "-")

/** What is wrong, on top: the problems not about one field, then a link to each field with an error. */
const problemsBox = (
  problems: ReadonlyArray<string>,
  errors: Readonly<Record<string, string>>,
  order: ReadonlyArray<string>,
): Child => {
  const withErrors = order.filter((path) => errors[path] !== undefined)
  if (problems.length === 0 && withErrors.length === 0) return null
  return html`<div class="problem" role="alert">
    ${problems.map((problem) => html`<p>${problem}</p>`)}
    ${
      withErrors.length === 0
        ? null
        : html`<p>${withErrors.length === 1 ? "Please correct this field:" : `Please correct these ${withErrors.length} fields:`}</p>
          <ul class="error-summary">
            ${withErrors.map((path) => html`<li><a href=${`#${fieldId(path)}`}>${errors[path]}</a></li>`)}
          </ul>`
    }
  </div>` as VNode
}

/** The heading of the part of the form a field path belongs to (its first segment). */
const sectionOf = (path: string) =>
  path.startsWith("bank_details.")
    ? "Bank account"
    : path.startsWith("address.")
      ? "Address of the account holder"
      : "Recipient and transfer"

const heading = (recipientName: string): Child =>
  html`<h1>Add a bank account</h1>
    <p class="lead">For <strong>${recipientName}</strong>.</p>
    ${requiredNote()}` as VNode

const select = (
  path: string,
  label: string,
  choices: ReadonlyArray<Choice>,
  chosen: string,
  error: string | undefined,
  required: boolean,
  after: Child = null,
): Child => {
  const id = fieldId(path)
  const known = choices.some((choice) => choice.value === chosen)
  return html`<div class="field">
    <label for=${id}>${label} ${requiredMark(required)}</label>
    <select id=${id} name=${path} required=${required} aria-invalid=${error ? "true" : undefined} aria-describedby=${describedBy(id, error)}>
      ${known ? null : html`<option value="" selected>Choose…</option>`}
      ${choices.map((choice) => html`<option value=${choice.value} selected=${choice.value === chosen}>${choice.label}</option>`)}
    </select>
    ${fieldError(id, error)}
    ${after}
  </div>` as VNode
}

const radios = (
  path: string,
  label: string,
  choices: ReadonlyArray<Choice>,
  chosen: string,
  error: string | undefined,
  required: boolean,
  after: Child = null,
): Child => {
  const id = fieldId(path)
  return html`<fieldset class="field choices" id=${id} aria-describedby=${describedBy(id, error)}>
    <legend>${label} ${requiredMark(required)}</legend>
    ${choices.map(
      (choice) => html`<div class="choice">
        <input type="radio" id=${`${id}-${choice.value}`} name=${path} value=${choice.value} checked=${choice.value === chosen} required=${required} aria-invalid=${error ? "true" : undefined} />
        <label for=${`${id}-${choice.value}`}>${choice.label}</label>
      </div>`,
    )}
    ${fieldError(id, error)}
    ${after}
  </fieldset>` as VNode
}

/** What a person is told about a text field's format: its example, else its length and kind of characters. */
export const hintOf = (field: RequirementField): string | undefined => {
  const rule = field.rule
  if (rule === null) return undefined
  const examples: Record<string, string> = {
    IBAN: "An IBAN, for example GB82 WEST 1234 5698 7654 32.",
    BIC: "A SWIFT/BIC code, for example DEUTDEFF.",
    ABA_ROUTING_NUMBER: "The 9-digit routing number, for example 021000021.",
    CLABE: "The 18-digit CLABE.",
  }
  const example = examples[rule.type]
  if (example !== undefined) return example
  // Free text ("^.+$") has nothing worth saying but its length, which maxlength already holds.
  if (rule.pattern === "^.+$" || rule.pattern === "") return undefined
  const kind = /^\^\[0-9\]\{[\d,]+\}\$$/.test(rule.pattern)
    ? "digits"
    : /^\^\[A-Z\]\{[\d,]+\}\$$/.test(rule.pattern)
      ? "capital letters"
      : "characters"
  const { minimum_length: minimum, maximum_length: maximum } = rule
  if (minimum !== null && maximum !== null) {
    return minimum === maximum ? `${minimum} ${kind}.` : `${minimum} to ${maximum} ${kind}.`
  }
  return maximum === null ? undefined : `At most ${maximum} ${kind}.`
}

const textInput = (field: RequirementField, value: string, error: string | undefined): Child => {
  const id = fieldId(field.path)
  const hint = hintOf(field)
  const rule = field.rule
  const describedIds = [hint === undefined ? undefined : `${id}-hint`, describedBy(id, error)].filter(
    (part) => part !== undefined,
  )
  return html`<div class="field">
    <label for=${id}>${field.field.label} ${requiredMark(field.required)}</label>
    ${hint === undefined ? null : html`<p class="hint" id=${`${id}-hint`}>${hint}</p>`}
    <input
      id=${id}
      name=${field.path}
      type="text"
      value=${value}
      required=${field.required}
      pattern=${rule?.pattern ? rule.pattern : undefined}
      minlength=${rule?.minimum_length ?? undefined}
      maxlength=${rule?.maximum_length ?? undefined}
      autocomplete="off"
      spellcheck="false"
      aria-invalid=${error ? "true" : undefined}
      aria-describedby=${describedIds.length === 0 ? undefined : describedIds.join(" ")}
    />
    ${fieldError(id, error)}
  </div>` as VNode
}

const refreshButton = (field: RequirementField, action: string): Child =>
  html`<button type="submit" class="update" formaction=${action} formnovalidate>
    Update form<span class="visually-hidden"> for ${field.field.label}</span>
  </button>` as VNode

/** One requirement field as a select, radios or a text input; a `refresh` one with its own Update button. */
const requirementControl = (field: RequirementField, view: DetailsView): Child => {
  const { path, field: shape } = field
  const error = view.errors[path]
  const after = shape.refresh ? refreshButton(field, view.actions.refresh) : null
  if (shape.type === "INPUT" && shape.options.length === 0) {
    return textInput(field, view.values[path] ?? shape.default ?? "", error)
  }
  const typed = view.values[path]
  const chosen =
    typed !== undefined && shape.options.some((option) => option.value === typed) ? typed : (shape.default ?? "")
  return shape.type === "SELECT" || shape.type === "INPUT"
    ? select(path, shape.label, shape.options, chosen, error, field.required, after)
    : radios(path, shape.label, shape.options, chosen, error, field.required, after)
}

/** The first step: bank country, currency and transfer method. */
export const choosePage = (frame: Frame, view: ChooseView): VNode => {
  const { values, errors } = view
  return layout(
    frame,
    html`${heading(view.recipientName)}
      ${problemsBox(view.problems, view.errors, Object.values(choosePaths))}
      <form method="post" action=${view.action} novalidate>
        ${hiddenFields(view.token, view.csrf)}
        ${view.carried.map(([name, value]) => html`<input type="hidden" name=${name} value=${value} />`)}
        ${select(choosePaths.country, "Country of the bank", view.countries, values[choosePaths.country] ?? "", errors[choosePaths.country], true)}
        ${select(choosePaths.currency, "Currency of the account", view.currencies, values[choosePaths.currency] ?? "", errors[choosePaths.currency], true)}
        ${radios(choosePaths.transferMethod, "How the money is sent", view.transferMethods, values[choosePaths.transferMethod] ?? "LOCAL", errors[choosePaths.transferMethod], true)}
        <button type="submit">Continue</button>
      </form>`,
  )
}

/** The second step: the requirement fields in their sections, each refresh field with its Update button, and Add. */
export const detailsPage = (frame: Frame, view: DetailsView): VNode => {
  const fields = view.fields.filter((field) => field.enabled)
  return layout(
    frame,
    html`${heading(view.recipientName)}
      ${problemsBox(
        view.problems,
        view.errors,
        fields.map((field) => field.path),
      )}
      <form method="post" action=${view.actions.save} novalidate>
        <button type="submit" class="default-submit" tabindex="-1" aria-hidden="true">Add bank account</button>
        ${hiddenFields(view.token, view.csrf)}
        ${fields.map((field, index) => {
          const section = sectionOf(field.path)
          const previous = index === 0 ? undefined : sectionOf(fields[index - 1]?.path ?? "")
          return [section === previous ? null : html`<h2>${section}</h2>`, requirementControl(field, view)]
        })}
        <div class="actions">
          <button type="submit">Add bank account</button>
          <button type="submit" class="secondary" formaction=${view.actions.restart} formnovalidate>Change country or currency</button>
        </div>
      </form>`,
  )
}

/** The page shown after the account is added when the token has no return URL, and of its link opened `again` after. */
export const addedPage = (frame: Frame, recipientName: string, again: boolean): VNode =>
  layout(
    frame,
    html`<h1>Bank account added</h1>
      <p>${again ? "This link was already used: " : null}The bank account of <strong>${recipientName}</strong> is saved. ${again ? "Nothing more is needed here; you" : "You"} can close this page.</p>`,
  )
