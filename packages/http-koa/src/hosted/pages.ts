import type { VNode } from "preact"
import { type Child, html } from "./html.ts"

/**
 * The hosted pages' views: functions of plain data returning elements; every value is escaped by
 * the renderer (see html.ts). Every input has its label; errors sit under their field.
 */

/** What every page's frame needs. */
export interface Frame {
  readonly title: string
  /** Where the one style sheet is served. */
  readonly cssHref: string
}

/** The whole document of a page. */
export const layout = (frame: Frame, body: Child): VNode =>
  html`<html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex, nofollow" />
      <title>${frame.title}</title>
      <link rel="stylesheet" href=${frame.cssHref} />
    </head>
    <body>
      <main>${body}</main>
    </body>
  </html>` as VNode

/** The 401 page: nothing about why, only what to do. */
export const unauthorizedPage = (frame: Frame): VNode =>
  layout(
    frame,
    html`<h1>This link cannot be used</h1>
      <p>The link you followed has expired or is not valid.</p>
      <p>Please ask for a new link from the service that sent you here.</p>`,
  )

/** The 403 page of a form posted without its valid CSRF token. */
export const forbiddenPage = (frame: Frame, retryHref: string | undefined): VNode =>
  layout(
    frame,
    html`<h1>This form could not be accepted</h1>
      <p>The form was not sent from this page, or it is out of date. Nothing was changed.</p>
      ${retryHref === undefined ? null : html`<p><a href=${retryHref}>Go back to the page</a> and try again.</p>`}`,
  )

/** A page for a request the hosted pages do not serve or could not finish. */
export const messagePage = (frame: Frame, heading: string, text: string): VNode =>
  layout(frame, html`<h1>${heading}</h1><p>${text}</p>`)

/** The hidden fields every form carries: the hosted-page token and its CSRF token. */
export const hiddenFields = (token: string, csrf: string): Child =>
  html`<input type="hidden" name="token" value=${token} /><input type="hidden" name="csrf" value=${csrf} />` as VNode

/** One funding account as the page lists it. */
export interface FundingAccountRow {
  readonly id: string
  readonly name: string
  readonly last4: string
  readonly status: string
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

const fieldError = (id: string, message: string | undefined): Child =>
  message === undefined ? null : (html`<p class="error" id=${`${id}-error`}>${message}</p>` as VNode)

const describedBy = (id: string, message: string | undefined) => (message === undefined ? undefined : `${id}-error`)

/** The funding-accounts page: the list, the link form, and the Done button. */
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
              </span>
              <form class="inline" method="post" action=${view.actions.remove}>
                ${hiddenFields(view.token, view.csrf)}
                <input type="hidden" name="bank_account_id" value=${account.id} />
                <button type="submit" class="secondary">Remove<span class="visually-hidden"> ${account.name} ending in ${account.last4}</span></button>
              </form>
            </li>`,
          )}
        </ul>`
  return layout(
    frame,
    html`<h1>Funding accounts</h1>
      ${view.notice === undefined ? null : html`<p class="notice" role="status">${view.notice}</p>`}
      ${view.problem === undefined ? null : html`<p class="problem" role="alert">${view.problem}</p>`}
      <h2>Your accounts</h2>
      ${list}
      <h2>Link a bank account</h2>
      <form method="post" action=${view.actions.link} novalidate>
        ${hiddenFields(view.token, view.csrf)}
        <div class="field">
          <label for="institution_id">Bank</label>
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
          <label for="mandate_email">Mandate e-mail</label>
          <input id="mandate_email" name="mandate_email" type="email" autocomplete="email" maxlength="200" value=${values.mandate_email ?? ""} aria-invalid=${errors.mandate_email ? "true" : undefined} aria-describedby=${describedBy("mandate_email", errors.mandate_email)} />
          ${fieldError("mandate_email", errors.mandate_email)}
        </div>
        <div class="field">
          <label for="signatory_name">Signatory name</label>
          <input id="signatory_name" name="signatory_name" type="text" autocomplete="name" maxlength="200" value=${values.signatory_name ?? ""} aria-invalid=${errors.signatory_name ? "true" : undefined} aria-describedby=${describedBy("signatory_name", errors.signatory_name)} />
          ${fieldError("signatory_name", errors.signatory_name)}
        </div>
        <button type="submit">Link account</button>
      </form>
      <h2>Finished?</h2>
      <form method="post" action=${view.actions.done}>
        ${hiddenFields(view.token, view.csrf)}
        <button type="submit">Done</button>
      </form>`,
  )
}

/** The page shown after Done when the token has no return URL. */
export const donePage = (frame: Frame): VNode =>
  layout(frame, html`<h1>All done</h1><p>Your funding accounts are saved. You can close this page.</p>`)
