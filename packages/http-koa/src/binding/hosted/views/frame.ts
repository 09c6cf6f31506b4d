import type { VNode } from "preact"
import { type Child, html } from "../html.ts"

/**
 * What every hosted page's view shares: functions of plain data returning elements; every value is escaped by
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

/** The error under a field, when it has one; its id is what the input's `aria-describedby` names. */
export const fieldError = (id: string, message: string | undefined): Child =>
  message === undefined ? null : (html`<p class="error" id=${`${id}-error`}>${message}</p>` as VNode)

/** The `aria-describedby` of an input whose field has an error. */
export const describedBy = (id: string, message: string | undefined) =>
  message === undefined ? undefined : `${id}-error`
