import type Router from "@koa/router"
import type { FundingAccount, HostedPageClaims } from "@payments-engine/core"
import { BankAccountId, EntityId } from "@payments-engine/core"
import { Conflict, Invalid, NotFound, ProviderFailure } from "@payments-engine/core/effect"
import type { Context } from "koa"
import type { AppState } from "../app-state.ts"
import { errorsByField, type HostedKit, queryToken } from "./kit.ts"
import { donePage, type FundingAccountRow, fundingAccountsPage } from "./views/funding-accounts.ts"

/** The name, last four digits, debit-profile status and mandate signatory of a funding account. */
const toRow = (account: FundingAccount): FundingAccountRow => {
  const debit = account.payment_profiles.find((profile) => profile.usage_type === "debit")
  return {
    id: account.id,
    name: account.routing_details[0]?.bank_name ?? "Bank account",
    last4: (account.account_details[0]?.account_number_mask ?? "").slice(-4),
    status: debit?.status ?? "unknown",
    ...(account.mandate === null ? {} : { signatory: account.mandate.signatory_name }),
  }
}

/** The longest value read from a field: past its inputs' 200, so the engine still says it is too long, short of a huge page. */
const longestValue = 264

/** The link form's fields as typed. */
const linkValues = (form: URLSearchParams) => ({
  institution_id: (form.get("institution_id") ?? "").slice(0, longestValue),
  mandate_email: (form.get("mandate_email") ?? "").slice(0, longestValue),
  signatory_name: (form.get("signatory_name") ?? "").slice(0, longestValue),
})

/** True when anything was typed or chosen in the link form. */
const typedAny = (values: Readonly<Record<string, string>>) =>
  Object.values(values).some((value) => value.trim() !== "")

/** What the page's redirects may ask it to say. */
const notices = {
  linked: "The bank account is linked.",
  removed: "The bank account is removed.",
} as const satisfies Record<string, string>

/**
 * `/funding-accounts` (spec "Funding accounts"): lists the token's entity's funding accounts,
 * links one through the bank-link port with the mandate e-mail and signatory name, removes one
 * unless a payment from it is pending or processing, and Done goes to the return URL.
 */
export const fundingAccountsRoutes = (router: Router<AppState>, kit: HostedKit): void => {
  const { engine } = kit
  const paths = {
    page: kit.path("/funding-accounts"),
    link: kit.path("/funding-accounts/link"),
    remove: kit.path("/funding-accounts/remove"),
    done: kit.path("/funding-accounts/done"),
  }

  const show = async (
    ctx: Context,
    status: number,
    token: string,
    claims: HostedPageClaims,
    extra: { values?: Record<string, string>; errors?: Record<string, string>; notice?: string; problem?: string } = {},
  ) => {
    const [accounts, institutions, csrf] = await Promise.all([
      engine.fundingAccounts.list(kit.actorOf(claims), EntityId.make(claims.entityId)),
      engine.fundingAccounts.institutions(),
      engine.hostedPageTokens.csrfToken(claims),
    ])
    kit.render(
      ctx,
      status,
      fundingAccountsPage(kit.frame(ctx, "Funding accounts"), {
        token,
        csrf,
        accounts: accounts.map(toRow),
        institutions,
        values: extra.values ?? {},
        errors: extra.errors ?? {},
        ...(extra.notice === undefined ? {} : { notice: extra.notice }),
        ...(extra.problem === undefined ? {} : { problem: extra.problem }),
        actions: { link: paths.link, remove: paths.remove, done: paths.done },
      }),
      claims.returnUrl,
    )
  }

  router.get(kit.route(paths.page), async (ctx) => {
    const token = queryToken(ctx)
    const claims = await kit.verified(ctx, token, ["funding_accounts"])
    if (claims === undefined) return
    const notice =
      typeof ctx.query.notice === "string" && Object.hasOwn(notices, ctx.query.notice)
        ? notices[ctx.query.notice as keyof typeof notices]
        : undefined
    await show(ctx, 200, token, claims, notice === undefined ? {} : { notice })
  })

  router.post(kit.route(paths.link), async (ctx) => {
    const checked = await kit.verifiedForm(ctx, ["funding_accounts"], paths.page)
    if (checked === undefined) return
    const { form, token, claims } = checked
    const values = linkValues(form)
    try {
      await engine.fundingAccounts.linkWithMandate(kit.actorOf(claims), EntityId.make(claims.entityId), values)
    } catch (error) {
      if (error instanceof Invalid) {
        await show(ctx, 422, token, claims, { values, errors: errorsByField(error) })
        return
      }
      if (error instanceof ProviderFailure) {
        const problem = "Your bank could not be reached just now. Nothing was linked; please try again in a moment."
        await show(ctx, 503, token, claims, { values, problem })
        return
      }
      throw error
    }
    kit.seeOther(ctx, kit.withToken(paths.page, token, { notice: "linked" }), claims.returnUrl)
  })

  router.post(kit.route(paths.remove), async (ctx) => {
    const checked = await kit.verifiedForm(ctx, ["funding_accounts"], paths.page)
    if (checked === undefined) return
    const { form, token, claims } = checked
    const id = (form.get("bank_account_id") ?? "").slice(0, 128)
    try {
      await engine.fundingAccounts.remove(kit.actorOf(claims), EntityId.make(claims.entityId), BankAccountId.make(id))
    } catch (error) {
      if (error instanceof Invalid || error instanceof NotFound || error instanceof Conflict) {
        const problem =
          error instanceof Invalid
            ? (error.errors[0]?.message ?? "This account cannot be removed")
            : error instanceof NotFound
              ? "This account is not one of your funding accounts, or it was already removed."
              : error.message
        await show(ctx, error instanceof NotFound ? 404 : error instanceof Conflict ? 409 : 422, token, claims, {
          problem,
          values: linkValues(form),
        })
        return
      }
      throw error
    }
    // What was typed in the link form stays: the page is shown as it is now, not redirected to.
    const values = linkValues(form)
    if (typedAny(values)) await show(ctx, 200, token, claims, { values, notice: notices.removed })
    else kit.seeOther(ctx, kit.withToken(paths.page, token, { notice: "removed" }), claims.returnUrl)
  })

  router.post(kit.route(paths.done), async (ctx) => {
    const checked = await kit.verifiedForm(ctx, ["funding_accounts"], paths.page)
    if (checked === undefined) return
    const { form, token, claims } = checked
    const values = linkValues(form)
    if (typedAny(values)) {
      const problem =
        "You started linking a bank account: press Link account to link it, or clear its fields, then Done."
      await show(ctx, 422, token, claims, { values, problem })
      return
    }
    kit.seeOther(ctx, claims.returnUrl ?? kit.withToken(paths.done, token), claims.returnUrl)
  })

  router.get(kit.route(paths.done), async (ctx) => {
    const claims = await kit.verified(ctx, queryToken(ctx), ["funding_accounts"])
    if (claims === undefined) return
    kit.render(ctx, 200, donePage(kit.frame(ctx, "Done")), claims.returnUrl)
  })
}
