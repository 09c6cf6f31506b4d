import type { VNode } from "preact"
import { type Child, html } from "../html.ts"

/**
 * What every hosted page's view shares: functions of plain data returning elements; every value is escaped by
 * the renderer (see html.ts). Every input has its label; errors sit under their field.
 */

/** One choice of a select or a radio group. */
export interface Choice {
  readonly value: string
  readonly label: string
}

/** The workspace's branding a page shows (validated by the engine: an https logo, a `#rrggbb` colour). */
export interface Brand {
  readonly displayName: string | null
  readonly logoUrl: string | null
  readonly accentColor: string | null
}

/** What every page's frame needs. */
export interface Frame {
  readonly title: string
  /** Where the one style sheet is served. */
  readonly cssHref: string
  /** The branding of the workspace whose page it is; absent before a token names one. */
  readonly brand?: Brand
}

/** The one inline style of a branded page: its accent colour, allowed by its hash in the page's CSP. */
export const accentStyle = (accentColor: string) => `:root{--accent:${accentColor}}`

/** The header of a branded page: its logo, then its display name. */
const brandHeader = (brand: Brand | undefined): Child => {
  if (brand === undefined || (brand.displayName === null && brand.logoUrl === null)) return null
  return html`<header class="brand">
    ${brand.logoUrl === null ? null : html`<img src=${brand.logoUrl} alt=${brand.displayName === null ? "Logo" : ""} />`}
    ${brand.displayName === null ? null : html`<span class="brand-name">${brand.displayName}</span>`}
  </header>` as VNode
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
      ${frame.brand?.accentColor ? html`<style>${accentStyle(frame.brand.accentColor)}</style>` : null}
    </head>
    <body>
      ${brandHeader(frame.brand)}
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

/** The mark every page puts after the label of a required field. */
export const requiredMark = (required: boolean): Child =>
  required ? (html`<abbr class="required" title="required">*</abbr>` as VNode) : null

/** The sentence every page with a required field says once, under its heading. */
export const requiredNote = (): Child =>
  html`<p class="lead">Fields marked <abbr class="required" title="required">*</abbr> are required.</p>` as VNode

/** The `aria-describedby` of an input whose field has an error. */
export const describedBy = (id: string, message: string | undefined) =>
  message === undefined ? undefined : `${id}-error`
