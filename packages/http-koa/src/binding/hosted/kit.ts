import { createHash } from "node:crypto"
import type { Engine, HostedPageClaims, HostedPagePurpose } from "@payments-engine/core"
import { WorkspaceId } from "@payments-engine/core"
import type { Invalid } from "@payments-engine/core/effect"
import type { Context } from "koa"
import type { VNode } from "preact"
import { renderDocument } from "./html.ts"
import { accentStyle, type Brand, type Frame, forbiddenPage, messagePage, unauthorizedPage } from "./views/frame.ts"

/**
 * What every hosted page's routes share: the security headers, rendering, the token and CSRF
 * checks, and the form reader. Every answer carries a strict Content-Security-Policy (no script
 * at all, the one style sheet from here, forms posting here or to the token's return URL origin,
 * no framing), and `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer` (the token is in the
 * URL), `X-Content-Type-Options: nosniff`, `Cache-Control: no-store`. The token comes as
 * `?token=` on a GET and as a hidden field of every form; a token refused for any reason gets the
 * same 401 page. Each form carries a CSRF token bound to the hosted-page token; a POST without a
 * valid one gets a 403 page and changes nothing.
 */

/** The largest form body read, in bytes; a bigger one is refused with 413 before it is parsed. */
const largestForm = 16 * 1024

/**
 * The policy of a page: `form-action` this server, and the return URL's origin when the token has
 * one; a branded page's accent style allowed by its hash alone, and its logo by its origin alone.
 */
const contentSecurityPolicy = (returnUrl: string | undefined, brand: Brand | undefined) => {
  let formAction = "'self'"
  if (returnUrl !== undefined && URL.canParse(returnUrl)) {
    const origin = new URL(returnUrl).origin
    if (origin !== "null") formAction = `'self' ${origin}`
  }
  let styleSrc = "'self'"
  if (brand?.accentColor) {
    styleSrc += ` 'sha256-${createHash("sha256").update(accentStyle(brand.accentColor)).digest("base64")}'`
  }
  const logoOrigin = brand?.logoUrl && URL.canParse(brand.logoUrl) ? new URL(brand.logoUrl).origin : "null"
  const imgSrc = logoOrigin.startsWith("https://") ? `; img-src ${logoOrigin}` : ""
  return `default-src 'none'; style-src ${styleSrc}${imgSrc}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`
}

/** Sets the headers every hosted-page answer carries, redirects included; `brand` of a branded page. */
export const setSecurityHeaders = (ctx: Context, returnUrl?: string, brand?: Brand) => {
  ctx.set("Content-Security-Policy", contentSecurityPolicy(returnUrl, brand))
  ctx.set("X-Frame-Options", "DENY")
  ctx.set("Referrer-Policy", "no-referrer")
  ctx.set("X-Content-Type-Options", "nosniff")
  ctx.set("Cache-Control", "no-store")
}

class FormTooLarge extends Error {}

/** The urlencoded form of a POST, at most {@link largestForm} bytes; an empty form for another content type. */
const readForm = async (ctx: Context): Promise<URLSearchParams> => {
  if (!ctx.is("application/x-www-form-urlencoded")) return new URLSearchParams()
  const declared = Number(ctx.get("Content-Length") || "0")
  if (declared > largestForm) throw new FormTooLarge()
  const chunks: Array<Buffer> = []
  let size = 0
  for await (const chunk of ctx.req) {
    const buffer = chunk as Buffer
    size += buffer.length
    if (size > largestForm) throw new FormTooLarge()
    chunks.push(buffer)
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"))
}

/** A checked form POST: its fields, its hosted-page token and that token's claims. */
export interface VerifiedForm {
  readonly form: URLSearchParams
  readonly token: string
  readonly claims: HostedPageClaims
}

/** The first message of each field of an `Invalid`, by field, as the forms show them. */
export const errorsByField = (error: Invalid): Record<string, string> => {
  const errors: Record<string, string> = {}
  for (const problem of error.errors) errors[problem.field] ??= problem.message
  return errors
}

/** The `?token=` of a GET, or "" (refused as any bad token is). */
export const queryToken = (ctx: Context): string => (typeof ctx.query.token === "string" ? ctx.query.token : "")

/**
 * The shared parts of the hosted pages, bound to one engine and base path.
 *
 * @example
 * const kit = makeHostedKit(engine, "/pay")
 * router.get(kit.route(kit.path("/funding-accounts")), async (ctx) => { const claims = await kit.verified(ctx, queryToken(ctx), ["funding_accounts"]) })
 */
export const makeHostedKit = (engine: Engine, basePath: string, mountPath = "") => {
  const cssHref = `${basePath}/hosted.css`
  /** The branding of the workspace of each request's token, once the token is verified. */
  const brands = new WeakMap<Context, Brand>()
  const rememberBrand = async (ctx: Context, claims: HostedPageClaims) => {
    const branding = await engine.workspaceBranding.get(actorOf(claims))
    brands.set(ctx, {
      displayName: branding.display_name,
      logoUrl: branding.logo_url,
      accentColor: branding.accent_color,
    })
  }

  /** The frame of a page titled `title`, branded as the workspace of the request's token. */
  const frame = (ctx: Context, title: string): Frame => {
    const brand = brands.get(ctx)
    return brand === undefined ? { title, cssHref } : { title, cssHref, brand }
  }

  /** Renders `page` as the whole answer, with the security headers. */
  const render = (ctx: Context, status: number, page: VNode, returnUrl?: string) => {
    setSecurityHeaders(ctx, returnUrl, brands.get(ctx))
    ctx.status = status
    ctx.type = "text/html; charset=utf-8"
    ctx.body = renderDocument(page)
  }

  /** The one 401 page, whatever was wrong with the token. */
  const unauthorized = (ctx: Context) => render(ctx, 401, unauthorizedPage(frame(ctx, "Link not valid")))

  /** A 303 to `location`, with the security headers. */
  const seeOther = (ctx: Context, location: string, returnUrl?: string) => {
    setSecurityHeaders(ctx, returnUrl)
    ctx.redirect(location)
    ctx.status = 303
  }

  /** `path` with the token (and `extra`) as its query. */
  const withToken = (path: string, token: string, extra: Record<string, string> = {}) =>
    `${path}?${new URLSearchParams({ token, ...extra }).toString()}`

  /**
   * The claims of `token` for one of `purposes`, or undefined once the 401 page is rendered. A
   * token whose task is done is refused too, but by the page that says it is done (`acceptUsed`),
   * or, with `whenUsed`, answered by it: the link opened again after its task says it is done.
   */
  const verified = async (
    ctx: Context,
    token: string,
    purposes: ReadonlyArray<HostedPagePurpose>,
    options: {
      readonly acceptUsed?: boolean
      readonly whenUsed?: (claims: HostedPageClaims) => void | Promise<void>
    } = {},
  ): Promise<HostedPageClaims | undefined> => {
    if (token === "") {
      unauthorized(ctx)
      return undefined
    }
    const checked = await engine.hostedPageTokens.verify(token, {
      purposes,
      ...(options.acceptUsed === undefined ? {} : { acceptUsed: options.acceptUsed }),
    })
    if (!checked.valid) {
      const used =
        checked.reason === "used" && options.whenUsed !== undefined
          ? await engine.hostedPageTokens.verify(token, { purposes, acceptUsed: true })
          : undefined
      if (used?.valid === true) {
        await rememberBrand(ctx, used.claims)
        await options.whenUsed?.(used.claims)
      } else unauthorized(ctx)
      return undefined
    }
    await rememberBrand(ctx, checked.claims)
    return checked.claims
  }

  /**
   * The claims of the token of a page that says its task is done, which only a used-up token
   * opens: an unused one is sent (303) to `formPath`, its task's form; a refused one gets the
   * 401 page. Undefined once either is answered.
   */
  const usedUpClaims = async (
    ctx: Context,
    purposes: ReadonlyArray<HostedPagePurpose>,
    formPath: string,
  ): Promise<HostedPageClaims | undefined> => {
    const token = queryToken(ctx)
    if ((await engine.hostedPageTokens.verify(token, { purposes })).valid) {
      seeOther(ctx, withToken(formPath, token))
      return undefined
    }
    return verified(ctx, token, purposes, { acceptUsed: true })
  }

  /**
   * A POST's form and claims, once its token and CSRF token hold; else the 413 (form too large),
   * 401 (token) or 403 (CSRF, with a link `back`) page is rendered and undefined returned.
   */
  const verifiedForm = async (
    ctx: Context,
    purposes: ReadonlyArray<HostedPagePurpose>,
    back: string,
  ): Promise<VerifiedForm | undefined> => {
    let form: URLSearchParams
    try {
      form = await readForm(ctx)
    } catch (error) {
      if (!(error instanceof FormTooLarge)) throw error
      render(ctx, 413, messagePage(frame(ctx, "Form too large"), "This form is too large", "Nothing was changed."))
      return undefined
    }
    const token = form.get("token") ?? ""
    const claims = await verified(ctx, token, purposes)
    if (claims === undefined) return undefined
    const csrfValid = await engine.hostedPageTokens.checkCsrfToken(claims, form.get("csrf") ?? "")
    if (!csrfValid) {
      render(ctx, 403, forbiddenPage(frame(ctx, "Form not accepted"), withToken(back, token)), claims.returnUrl)
      return undefined
    }
    return { form, token, claims }
  }

  /** The engine actor a page acts as: its token's workspace, allowed to write. */
  const actorOf = (claims: HostedPageClaims) => ({
    workspaceId: WorkspaceId.make(claims.workspaceId),
    scope: "write" as const,
  })

  return {
    engine,
    cssHref,
    /** The path a page such as "/funding-accounts" is reached at, for links, forms and redirects. */
    path: (page: string) => `${basePath}${page}`,
    /** What the app routes for a {@link path}: the host took the mount path off the URL. */
    route: (path: string) => path.slice(mountPath.length),
    frame,
    render,
    unauthorized,
    seeOther,
    withToken,
    verified,
    usedUpClaims,
    verifiedForm,
    actorOf,
  }
}

/** The shared parts of the hosted pages; see {@link makeHostedKit}. */
export type HostedKit = ReturnType<typeof makeHostedKit>
