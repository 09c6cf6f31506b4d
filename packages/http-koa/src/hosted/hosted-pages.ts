import { readFileSync } from "node:fs"
import Router from "@koa/router"
import {
  type BankAccount,
  BankAccountId,
  Conflict,
  type Engine,
  EntityId,
  type HostedPageClaims,
  type HostedPagePurpose,
  Invalid,
  NotFound,
  ProviderFailure,
  WorkspaceId,
} from "@payments-engine/core"
import type { Context, Next } from "koa"
import type { Logger } from "pino"
import type { VNode } from "preact"
import type { AppState } from "../app-state.ts"
import { errorLogFields } from "../error-log-fields.ts"
import { renderDocument } from "./html.ts"
import {
  donePage,
  type Frame,
  type FundingAccountRow,
  forbiddenPage,
  fundingAccountsPage,
  messagePage,
  unauthorizedPage,
} from "./pages.ts"

/**
 * The hosted pages (DECISIONS "Hosted pages"), served by the Koa binding under the path of
 * `PAYMENTS_HOSTED_URL`: plain server-rendered HTML forms that work without JavaScript.
 *
 * Every answer carries a strict Content-Security-Policy (no script at all, the one style sheet
 * from here, forms posting here or to the token's return URL origin, no framing), and
 * `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer` (the token is in the URL),
 * `X-Content-Type-Options: nosniff`, `Cache-Control: no-store`. The token comes as `?token=` on
 * a GET and as a hidden field of every form; a token refused for any reason gets the same 401
 * page. Each form carries a CSRF token bound to the hosted-page token (`engine.hostedPageTokens.csrfToken`);
 * a POST without a valid one gets a 403 page and changes nothing. A POST that succeeds redirects
 * (303) to a GET.
 */

const css = readFileSync(new URL("./hosted.css", import.meta.url), "utf8")

/** The largest form body read, in bytes; a bigger one is refused with 413 before it is parsed. */
const largestForm = 16 * 1024

/** Options of {@link hostedPages}. */
export interface HostedPagesOptions {
  readonly engine: Engine
  /** The path the pages are served under (the path of `PAYMENTS_HOSTED_URL`): "" or "/pay", no trailing slash. */
  readonly basePath: string
  /** Where a page that broke is logged. */
  readonly logger: Logger
}

/** The `form-action` origins of a page: this server, and the return URL's origin when the token has one. */
const contentSecurityPolicy = (returnUrl: string | undefined) => {
  let formAction = "'self'"
  if (returnUrl !== undefined && URL.canParse(returnUrl)) {
    const origin = new URL(returnUrl).origin
    if (origin !== "null") formAction = `'self' ${origin}`
  }
  return `default-src 'none'; style-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`
}

const setSecurityHeaders = (ctx: Context, returnUrl?: string) => {
  ctx.set("Content-Security-Policy", contentSecurityPolicy(returnUrl))
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

/** The name, last four digits and debit-profile status of a funding account. */
const toRow = (account: BankAccount): FundingAccountRow => {
  const debit = account.payment_profiles.find((profile) => profile.usage_type === "debit")
  return {
    id: account.id,
    name: account.routing_details[0]?.bank_name ?? "Bank account",
    last4: (account.account_details[0]?.account_number_mask ?? "").slice(-4),
    status: debit?.status ?? "unknown",
  }
}

/** What the funding page's redirects may ask it to say. */
const notices: Readonly<Record<string, string>> = {
  linked: "The bank account is linked.",
  removed: "The bank account is removed.",
}

/**
 * The router of the hosted pages, to mount in the app before the 404.
 *
 * @example
 * app.use(hostedPages({ engine, basePath: new URL(config.hostedUrl).pathname.replace(/\/+$/, "") }).routes())
 */
export const hostedPages = (options: HostedPagesOptions): Router<AppState> => {
  const { engine, basePath, logger } = options
  const router = new Router<AppState>()
  const cssHref = `${basePath}/hosted.css`
  const frame = (title: string): Frame => ({ title, cssHref })
  const paths = {
    funding: `${basePath}/funding-accounts`,
    fundingLink: `${basePath}/funding-accounts/link`,
    fundingRemove: `${basePath}/funding-accounts/remove`,
    fundingDone: `${basePath}/funding-accounts/done`,
  }
  const withToken = (path: string, token: string, extra: Record<string, string> = {}) =>
    `${path}?${new URLSearchParams({ token, ...extra }).toString()}`

  const render = (ctx: Context, status: number, page: VNode, returnUrl?: string) => {
    setSecurityHeaders(ctx, returnUrl)
    ctx.status = status
    ctx.type = "text/html; charset=utf-8"
    ctx.body = renderDocument(page)
  }
  const unauthorized = (ctx: Context) => render(ctx, 401, unauthorizedPage(frame("Link not valid")))

  /** The claims of the request's token for one of `purposes`, or undefined once the 401 page is rendered. */
  const verified = async (ctx: Context, token: string, purposes: ReadonlyArray<HostedPagePurpose>) => {
    if (token === "") {
      unauthorized(ctx)
      return undefined
    }
    const checked = await engine.hostedPageTokens.verify(token, { purposes })
    if (!checked.valid) {
      unauthorized(ctx)
      return undefined
    }
    return checked.claims
  }

  /**
   * A POST's form and claims, once its token and CSRF token hold; else the 401 (token) or 403
   * (CSRF) page is rendered and undefined returned.
   */
  const verifiedForm = async (ctx: Context, purposes: ReadonlyArray<HostedPagePurpose>, back: string) => {
    let form: URLSearchParams
    try {
      form = await readForm(ctx)
    } catch (error) {
      if (!(error instanceof FormTooLarge)) throw error
      render(ctx, 413, messagePage(frame("Form too large"), "This form is too large", "Nothing was changed."))
      return undefined
    }
    const token = form.get("token") ?? ""
    const claims = await verified(ctx, token, purposes)
    if (claims === undefined) return undefined
    const csrfValid = await engine.hostedPageTokens.checkCsrfToken(claims, form.get("csrf") ?? "")
    if (!csrfValid) {
      render(ctx, 403, forbiddenPage(frame("Form not accepted"), withToken(back, token)), claims.returnUrl)
      return undefined
    }
    return { form, token, claims }
  }

  const actorOf = (claims: HostedPageClaims) => ({
    workspaceId: WorkspaceId.make(claims.workspaceId),
    scope: "write" as const,
  })

  const showFunding = async (
    ctx: Context,
    status: number,
    token: string,
    claims: HostedPageClaims,
    extra: { values?: Record<string, string>; errors?: Record<string, string>; notice?: string; problem?: string } = {},
  ) => {
    const [accounts, institutions, csrf] = await Promise.all([
      engine.fundingAccounts.list(actorOf(claims), EntityId.make(claims.entityId)),
      engine.fundingAccounts.institutions(),
      engine.hostedPageTokens.csrfToken(claims),
    ])
    render(
      ctx,
      status,
      fundingAccountsPage(frame("Funding accounts"), {
        token,
        csrf,
        accounts: accounts.map(toRow),
        institutions,
        values: extra.values ?? {},
        errors: extra.errors ?? {},
        ...(extra.notice === undefined ? {} : { notice: extra.notice }),
        ...(extra.problem === undefined ? {} : { problem: extra.problem }),
        actions: { link: paths.fundingLink, remove: paths.fundingRemove, done: paths.fundingDone },
      }),
      claims.returnUrl,
    )
  }

  /** A page that broke answers an HTML 500 with the same headers, and is logged as a defect. */
  router.use(async (ctx: Context, next: Next) => {
    try {
      await next()
    } catch (error) {
      logger.error({ request_id: ctx.state.requestId, err: errorLogFields(error) }, "hosted page failed")
      render(
        ctx,
        500,
        messagePage(
          frame("Something went wrong"),
          "Something went wrong",
          "Nothing more was changed. Please try again in a moment.",
        ),
      )
    }
  })

  router.get(cssHref, (ctx) => {
    setSecurityHeaders(ctx)
    ctx.set("Cache-Control", "public, max-age=3600")
    ctx.type = "text/css; charset=utf-8"
    ctx.body = css
  })

  router.get(paths.funding, async (ctx) => {
    const token = typeof ctx.query.token === "string" ? ctx.query.token : ""
    const claims = await verified(ctx, token, ["funding_accounts"])
    if (claims === undefined) return
    const notice = typeof ctx.query.notice === "string" ? notices[ctx.query.notice] : undefined
    await showFunding(ctx, 200, token, claims, notice === undefined ? {} : { notice })
  })

  router.post(paths.fundingLink, async (ctx) => {
    const checked = await verifiedForm(ctx, ["funding_accounts"], paths.funding)
    if (checked === undefined) return
    const { form, token, claims } = checked
    const values = {
      institution_id: form.get("institution_id") ?? "",
      mandate_email: form.get("mandate_email") ?? "",
      signatory_name: form.get("signatory_name") ?? "",
    }
    try {
      await engine.fundingAccounts.linkWithMandate(actorOf(claims), EntityId.make(claims.entityId), values)
    } catch (error) {
      if (error instanceof Invalid) {
        const errors: Record<string, string> = {}
        for (const problem of error.errors) errors[problem.field] ??= problem.message
        await showFunding(ctx, 422, token, claims, { values, errors })
        return
      }
      if (error instanceof ProviderFailure) {
        const problem = "Your bank could not be reached just now. Nothing was linked; please try again in a moment."
        await showFunding(ctx, 503, token, claims, { values, problem })
        return
      }
      throw error
    }
    setSecurityHeaders(ctx, claims.returnUrl)
    ctx.redirect(withToken(paths.funding, token, { notice: "linked" }))
    ctx.status = 303
  })

  router.post(paths.fundingRemove, async (ctx) => {
    const checked = await verifiedForm(ctx, ["funding_accounts"], paths.funding)
    if (checked === undefined) return
    const { form, token, claims } = checked
    const id = (form.get("bank_account_id") ?? "").slice(0, 128)
    try {
      await engine.fundingAccounts.remove(actorOf(claims), EntityId.make(claims.entityId), BankAccountId.make(id))
    } catch (error) {
      if (error instanceof Invalid || error instanceof NotFound || error instanceof Conflict) {
        const problem =
          error instanceof Invalid
            ? (error.errors[0]?.message ?? "This account cannot be removed")
            : error instanceof NotFound
              ? "This account is not one of your funding accounts, or it was already removed."
              : error.message
        await showFunding(ctx, error instanceof NotFound ? 404 : error instanceof Conflict ? 409 : 422, token, claims, {
          problem,
        })
        return
      }
      throw error
    }
    setSecurityHeaders(ctx, claims.returnUrl)
    ctx.redirect(withToken(paths.funding, token, { notice: "removed" }))
    ctx.status = 303
  })

  router.post(paths.fundingDone, async (ctx) => {
    const checked = await verifiedForm(ctx, ["funding_accounts"], paths.funding)
    if (checked === undefined) return
    const { token, claims } = checked
    setSecurityHeaders(ctx, claims.returnUrl)
    ctx.redirect(claims.returnUrl ?? withToken(paths.fundingDone, token))
    ctx.status = 303
  })

  router.get(paths.fundingDone, async (ctx) => {
    const token = typeof ctx.query.token === "string" ? ctx.query.token : ""
    const claims = await verified(ctx, token, ["funding_accounts"])
    if (claims === undefined) return
    render(ctx, 200, donePage(frame("Done")), claims.returnUrl)
  })

  return router
}
