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
 * A person adds a US bank account for a recipient on `/recipient/add-bank-account` in real
 * Chromium, without JavaScript: chooses the country, changes the clearing system (a `refresh`
 * field) on the way, fixes the one error shown next to its field, and ends on the return URL;
 * the account is then seen through the API, and the link opened again says it is added. The page
 * is branded as the workspace and offers only the bank countries the payment provider pays to.
 */
const rig = hostedPageRig()

describe("the add-bank-account page in Chromium", () => {
  it("adds a US account by Fedwire, refusing a bad routing number next to its field, and returns", async () => {
    const { service, browser, site } = rig
    const { token, cid, eid } = await signedInEntity(service, "browser-recipient")
    const recipient = await service.request("POST", `/api/v1/companies/${cid}/recipients`, {
      token,
      body: { name: "Jane Supplier" },
    })
    expect(recipient.status, recipient.text).toBe(201)
    const rid = recipient.body.data.id as string
    await trustDomains(service, token, ["localhost"])
    const issued = await service.request("POST", `/api/v1/companies/${cid}/entities/${eid}/hosted_page_tokens`, {
      token,
      body: {
        purpose: "recipient_add_bank_account",
        recipient_id: rid,
        return_url: `${site.origin}/recipients/${rid}?added=1`,
      },
    })
    expect(issued.status, issued.text).toBe(201)
    const bankAccounts = async () => {
      const listed = await service.request("GET", `/api/v1/companies/${cid}/bank_accounts`, { token })
      type Listed = {
        owner_id: string
        routing_details: Array<{ routing_number: string }>
        payment_profiles: Array<{ usage_type: string; payment_method: string }>
      }
      return listed.body.data as Array<Listed>
    }

    const context = await browser.newContext({ javaScriptEnabled: false })
    await brandWorkspace(service, token, context)
    const page = await context.newPage()
    const link = `${service.url}/recipient/add-bank-account?token=${issued.body.data.token}`
    const opened = await page.goto(link)
    expect(opened?.status()).toBe(200)
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Add a bank account")
    await expectBranded(page)
    expect(await requiredLabels(page)).toEqual([
      "Country of the bank *",
      "Currency of the account *",
      "How the money is sent *",
    ])
    const offered = await page.locator("#bank_details-bank_country_code option").allInnerTexts()
    expect(offered[0]).toBe("Choose…")
    expect(offered.length - 1).toBe((await service.paymentProvider.bankCountries()).length)
    expect(offered).toContain("United Kingdom")
    expect(offered).not.toContain("Antarctica")
    await screenshotBothWidths(page, "recipient-add-bank-account")

    await page.getByLabel("Country of the bank").selectOption("US")
    await page.getByLabel("Currency of the account").selectOption("USD")
    await page.getByLabel("Local bank transfer").check()
    await page.getByRole("button", { name: "Continue" }).click()
    await page.waitForLoadState()
    expect(await page.getByLabel("Clearing system").inputValue()).toBe("ACH")

    await page.getByLabel("Business name").fill("Jane Supplier LLC")
    await page.getByLabel("Account number").fill("123456789")
    await page.getByLabel("ABA routing number").fill("123456789")
    // Back to the first step and on again: what was typed comes back.
    await page.getByRole("button", { name: "Change country or currency" }).click()
    await page.waitForLoadState()
    expect(await page.getByLabel("Country of the bank").inputValue()).toBe("US")
    await page.getByRole("button", { name: "Continue" }).click()
    await page.waitForLoadState()
    expect(await page.getByLabel("Business name").inputValue()).toBe("Jane Supplier LLC")
    expect(await page.getByLabel("ABA routing number").inputValue()).toBe("123456789")
    // Changing the clearing system asks for the form again; what was typed stays.
    await page.getByLabel("Clearing system").selectOption("FEDWIRE")
    await page.getByRole("button", { name: "Update form for Clearing system" }).click()
    await page.waitForLoadState()
    expect(await page.getByLabel("Clearing system").inputValue()).toBe("FEDWIRE")
    expect(await page.getByLabel("Business name").inputValue()).toBe("Jane Supplier LLC")
    expect(await page.getByLabel("Account number").inputValue()).toBe("123456789")
    await page.getByLabel("Street address").fill("1 Main Street")
    await page.getByLabel("City").fill("Springfield")
    await screenshotBothWidths(page, "recipient-add-bank-account-fields")

    await page.getByRole("button", { name: "Add bank account" }).click()
    await page.waitForLoadState()
    const routingError = page.locator("#bank_details-account_routing_value1-error")
    expect(await routingError.textContent()).toBe("ABA routing number is not a valid ABA routing number")
    expect(await page.locator("p.error").count()).toBe(1)
    expect(await page.getByLabel("ABA routing number").getAttribute("aria-describedby")).toContain(
      "bank_details-account_routing_value1-error",
    )
    expect(await page.getByLabel("City").inputValue()).toBe("Springfield")
    await screenshotBothWidths(page, "recipient-add-bank-account-error")
    expect(await bankAccounts()).toEqual([])

    // Enter in a field adds the account (the form's default button), it does not update the form.
    await page.getByLabel("ABA routing number").fill("021000021")
    await page.getByLabel("ABA routing number").press("Enter")
    await page.waitForURL(`${site.origin}/**`)
    expect(page.url()).toBe(`${site.origin}/recipients/${rid}?added=1`)
    expect(site.visits).toEqual([`/recipients/${rid}?added=1`])
    const [account, ...others] = await bankAccounts()
    expect(others).toEqual([])
    expect(account?.owner_id).toBe(rid)
    expect(account?.routing_details).toMatchObject([{ routing_number: "021000021" }])
    expect(account?.payment_profiles).toMatchObject([{ usage_type: "credit", payment_method: "wire" }])

    // The same link opened again says the account is added, not that the link is bad.
    await page.goto(link)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Bank account added")
    expect(await page.getByText("This link was already used").count()).toBe(1)
    await expectBranded(page)
    await screenshotBothWidths(page, "recipient-add-bank-account-already-added")
    await context.close()
  })
})
