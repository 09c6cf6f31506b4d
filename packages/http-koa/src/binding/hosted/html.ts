import { html } from "htm/preact"
import type { VNode } from "preact"
import { renderToString } from "preact-render-to-string"

/**
 * The template layer of the hosted pages: `htm` tagged templates building Preact elements,
 * rendered to a string on the server by `preact-render-to-string`. Every interpolated value is a
 * text node or an attribute value, escaped by the renderer; there is no way to insert raw HTML
 * short of `dangerouslySetInnerHTML`, which these pages never use.
 *
 * @example
 * const page = html`<p>Hello ${name}</p>` // name "<script>" renders as &lt;script&gt;
 */
export { html }

/** A child of a template: an element, text, or nothing. */
export type Child = VNode | string | number | null | undefined | false | ReadonlyArray<Child>

/**
 * The document of a page: the doctype, then the rendered element tree.
 *
 * @example
 * ctx.body = renderDocument(html`<html lang="en">...</html>`)
 */
export const renderDocument = (page: VNode | ReadonlyArray<VNode> | string): string =>
  `<!doctype html>${renderToString(page as VNode)}`
