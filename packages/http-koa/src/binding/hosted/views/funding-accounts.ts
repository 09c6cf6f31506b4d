import type { VNode } from "preact"
import { html } from "../html.ts"
import { describedBy, type Frame, fieldError, hiddenFields, layout, requiredMark, requiredNote } from "./frame.ts"

/** One funding account as the page lists it. */
export interface FundingAccountRow {
  readonly id: string
  readonly name: string
  readonly last4: string
  readonly status: string
  /** Who signed the account's debit mandate, when it was linked here. */
  readonly signatory?: string
}

/** Everything the funding-accounts page shows. */
export interface FundingAccountsView {
  readonly token: string
  readonly csrf: string
  readonly accounts: ReadonlyArray<FundingAccountRow>
  readonly institutions: ReadonlyArray<{ readonly id: string; readonly name: string }>
  /** The link form's values, as typed, when it is shown again with errors. */
  readonly values: Readonly<Record<string, string>>
  /** Errors of the link form, by field. */
  readonly errors: Readonly<Record<string, string>>
  /** A confirmation shown on top (after a link or a removal). */
  readonly notice?: string
  /** A problem shown on top (a removal refused). */
  readonly problem?: string
  readonly actions: { readonly link: string; readonly remove: string; readonly done: string }
}

/**
 * The funding-accounts page: the list, the link form, and the Done button, all one form, so that
 * Remove and Done send what was typed in the link form too and the page can keep it.
 */
export const fundingAccountsPage = (frame: Frame, view: FundingAccountsView): VNode => {
  const { errors, values } = view
  const list =
    view.accounts.length === 0
      ? html`<p>No funding account is linked yet.</p>`
      : html`<ul class="accounts">
          ${view.accounts.map(
            (account) => html`<li key=${account.id}>
              <span>
                <span class="account-name">${account.name}</span> ending in ${account.last4}
                <span class="status"> (${account.status})</span>
                ${account.signatory === undefined ? null : html`<span class="mandate">Mandate signed by ${account.signatory}</span>`}
              </span>
              <button type="submit" class="secondary" formaction=${view.actions.remove} name="bank_account_id" value=${account.id}>Remove<span class="visually-hidden"> ${account.name} ending in ${account.last4}</span></button>
            </li>`,
          )}
        </ul>`
  return layout(
    frame,
    html`<h1>Funding accounts</h1>
      ${view.notice === undefined ? null : html`<p class="notice" role="status">${view.notice}</p>`}
      ${view.problem === undefined ? null : html`<p class="problem" role="alert">${view.problem}</p>`}
      <form method="post" action=${view.actions.link} novalidate>
        <button type="submit" class="default-submit" tabindex="-1" aria-hidden="true">Link account</button>
        ${hiddenFields(view.token, view.csrf)}
      <h2>Your accounts</h2>
      ${list}
      <h2>Link a bank account</h2>
      ${requiredNote()}
        <div class="field">
          <label for="institution_id">Bank ${requiredMark(true)}</label>
          <select id="institution_id" name="institution_id" aria-invalid=${errors.institution_id ? "true" : undefined} aria-describedby=${describedBy("institution_id", errors.institution_id)}>
            <option value="">Choose your bank</option>
            ${view.institutions.map(
              (bank) =>
                html`<option value=${bank.id} selected=${values.institution_id === bank.id}>${bank.name}</option>`,
            )}
          </select>
          ${fieldError("institution_id", errors.institution_id)}
        </div>
        <div class="field">
          <label for="mandate_email">Mandate e-mail ${requiredMark(true)}</label>
          <input id="mandate_email" name="mandate_email" type="email" autocomplete="email" maxlength="200" value=${values.mandate_email ?? ""} aria-invalid=${errors.mandate_email ? "true" : undefined} aria-describedby=${describedBy("mandate_email", errors.mandate_email)} />
          ${fieldError("mandate_email", errors.mandate_email)}
        </div>
        <div class="field">
          <label for="signatory_name">Signatory name ${requiredMark(true)}</label>
          <input id="signatory_name" name="signatory_name" type="text" autocomplete="name" maxlength="200" value=${values.signatory_name ?? ""} aria-invalid=${errors.signatory_name ? "true" : undefined} aria-describedby=${describedBy("signatory_name", errors.signatory_name)} />
          ${fieldError("signatory_name", errors.signatory_name)}
        </div>
        <button type="submit">Link account</button>
      <h2>Finished?</h2>
        <button type="submit" formaction=${view.actions.done}>Done</button>
      </form>`,
  )
}

/** The page shown after Done when the token has no return URL. */
export const donePage = (frame: Frame): VNode =>
  layout(frame, html`<h1>All done</h1><p>Your funding accounts are saved. You can close this page.</p>`)
