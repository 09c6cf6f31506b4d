import { describe, expect, it } from "vitest"
import {
  brandWorkspace,
  expectBranded,
  hostedPageRig,
  requiredLabels,
  screenshotBothWidths,
} from "../support/browser.ts"
import { signedInEntity, trustDomains } from "../support/entity-client.ts"

/**
 * A person links and removes a funding account on `/funding-accounts` in real Chromium, without
 * JavaScript, on a page branded as the workspace, and ends on the return URL; the account and its
 * removal are seen through the API.
 */
const rig = hostedPageRig()

describe("the funding-accounts page in Chromium", () => {
  it("links an account with its mandate, refuses a bad e-mail next to its field, removes it, and returns", async () => {
    const { service, browser, site } = rig
    const { token, cid, eid } = await signedInEntity(service, "browser-funding")
    const enabled = await service.request("POST", `/api/v1/companies/${cid}/entities/${eid}/features`, {
      token,
      body: { feature_identifier: "multi_currency_account" },
    })
    expect(enabled.status, enabled.text).toBe(201)
    await trustDomains(service, token, ["localhost"])
    const issued = await service.request("POST", "/api/v1/hosted_page_tokens", {
      token,
      body: { purpose: "funding_accounts", entity_id: eid, return_url: `${site.origin}/settings/funding?from=hosted` },
    })
    expect(issued.status, issued.text).toBe(201)
    /** The entity's accounts with an active debit profile, as the API shows them: removing one makes it inactive. */
    const fundingAccounts = async () => {
      const listed = await service.request("GET", `/api/v1/companies/${cid}/bank_accounts`, { token })
      type Listed = { owner_id: string; payment_profiles: Array<{ usage_type: string; status: string }> }
      return (listed.body.data as Array<Listed>).filter((account) =>
        account.payment_profiles.some((profile) => profile.usage_type === "debit" && profile.status === "active"),
      )
    }

    const context = await browser.newContext({ javaScriptEnabled: false })
    await brandWorkspace(service, token, context)
    const page = await context.newPage()
    const opened = await page.goto(`${service.url}/funding-accounts?token=${issued.body.data.token}`)
    expect(opened?.status()).toBe(200)
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Funding accounts")
    expect(await page.getByText("No funding account is linked yet.").count()).toBe(1)
    await expectBranded(page)
    expect(await requiredLabels(page)).toEqual(["Bank *", "Mandate e-mail *", "Signatory name *"])
    await screenshotBothWidths(page, "funding-accounts")

    await page.getByLabel("Bank").selectOption({ label: "Tartan Bank" })
    await page.getByLabel("Mandate e-mail").fill("not an e-mail")
    await page.getByLabel("Signatory name").fill("Ada Lovelace")
    await page.getByRole("button", { name: "Link account" }).click()
    await page.waitForLoadState()
    const emailError = page.locator("#mandate_email-error")
    expect(await emailError.count()).toBe(1)
    expect(await page.getByLabel("Mandate e-mail").getAttribute("aria-describedby")).toBe("mandate_email-error")
    expect(await page.getByLabel("Signatory name").inputValue()).toBe("Ada Lovelace")
    await screenshotBothWidths(page, "funding-accounts-error")
    expect(await fundingAccounts()).toEqual([])

    await page.getByLabel("Mandate e-mail").fill("ada@example.com")
    await page.getByRole("button", { name: "Link account" }).click()
    await page.waitForLoadState()
    expect(await page.getByRole("status").textContent()).toBe("The bank account is linked.")
    expect(await page.getByText("Mandate signed by Ada Lovelace").count()).toBe(1)
    const linked = await fundingAccounts()
    expect(linked).toHaveLength(1)
    expect(linked[0]?.owner_id).toBe(eid)
    await screenshotBothWidths(page, "funding-accounts-linked")

    // Typed in the link form, then Remove: the account goes, what was typed stays.
    await page.getByLabel("Signatory name").fill("Grace Hopper")
    await page.getByRole("button", { name: /^Remove/ }).click()
    await page.waitForLoadState()
    expect(await page.getByRole("status").textContent()).toBe("The bank account is removed.")
    expect(await fundingAccounts()).toEqual([])
    expect(await page.getByLabel("Signatory name").inputValue()).toBe("Grace Hopper")

    // Done with something typed and not linked says so and keeps it; cleared, Done ends the visit.
    await page.getByRole("button", { name: "Done" }).click()
    await page.waitForLoadState()
    expect(await page.getByRole("alert").textContent()).toContain("You started linking a bank account")
    expect(await page.getByLabel("Signatory name").inputValue()).toBe("Grace Hopper")
    await page.getByLabel("Signatory name").fill("")
    await page.getByRole("button", { name: "Done" }).click()
    await page.waitForURL(`${site.origin}/**`)
    expect(page.url()).toBe(`${site.origin}/settings/funding?from=hosted`)
    expect(site.visits).toEqual(["/settings/funding?from=hosted"])
    await context.close()
  })
})
