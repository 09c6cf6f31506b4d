import { describe, expect, it } from "vitest"
import { hostedPageRig, screenshotBothWidths } from "../support/browser.ts"
import { signedInEntity, trustDomains } from "../support/entity-client.ts"

/**
 * A person completes the multi-currency onboarding on `/entity-feature` in real Chromium, without
 * JavaScript: business details (one refused next to its field), address, a person, submit, and
 * ends on the return URL; the feature is SUBMITTED through the API. Then the pending-action page.
 */
const rig = hostedPageRig()

describe("the entity-feature page in Chromium", () => {
  it("completes the onboarding section by section, submits, returns, and answers a pending action", async () => {
    const { service, browser, site } = rig
    const { token, cid, eid } = await signedInEntity(service, "browser-entity-feature")
    const base = `/api/v1/companies/${cid}/entities/${eid}`
    const enabled = await service.request("POST", `${base}/features`, {
      token,
      body: { feature_identifier: "multi_currency_account" },
    })
    expect(enabled.status, enabled.text).toBe(201)
    const applicationId = enabled.body.data.application_id as string
    await trustDomains(service, token, ["localhost"])
    const prefilled = await service.request("PATCH", `${base}/onboarding`, {
      token,
      body: { business_details: { business_name: "Initech LLC" }, primary_contact: { email: "ops@initech.example" } },
    })
    expect(prefilled.status, prefilled.text).toBe(200)
    const issue = async (purpose: "onboarding" | "pending_action") => {
      const issued = await service.request("POST", `${base}/hosted_page_tokens`, {
        token,
        body: {
          feature_identifier: "multi_currency_account",
          purpose,
          application_id: applicationId,
          return_url: `${site.origin}/settings/account?from=hosted`,
        },
      })
      expect(issued.status, issued.text).toBe(201)
      return issued.body.data.token as string
    }
    const featureStatus = async () =>
      (await service.request("GET", `${base}/features`, { token })).body.data[0].status as string

    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    page.setDefaultTimeout(5000)
    const opened = await page.goto(`${service.url}/entity-feature?token=${await issue("onboarding")}`)
    expect(opened?.status()).toBe(200)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Open your multi-currency account")
    expect(await page.getByLabel("Legal business name").inputValue()).toBe("Initech LLC")
    expect(await page.getByLabel("Contact e-mail").inputValue()).toBe("ops@initech.example")
    await screenshotBothWidths(page, "entity-feature")

    await page.getByLabel("Business structure").fill("LLC")
    await page.getByLabel("Website").fill("initech dot example")
    await page.getByRole("button", { name: "Save business details" }).click()
    await page.waitForLoadState()
    expect(await page.locator("#business_details-website_url-error").textContent()).toBe("must be an http or https URL")
    expect(await page.getByLabel("Business structure").inputValue()).toBe("LLC")
    expect(await page.getByLabel("Website").getAttribute("aria-describedby")).toBe("business_details-website_url-error")
    await screenshotBothWidths(page, "entity-feature-error")

    await page.getByLabel("Website").fill("https://initech.example")
    await page.getByRole("button", { name: "Save business details" }).click()
    await page.waitForLoadState()
    expect(await page.getByRole("status").textContent()).toBe("Saved: business details.")

    await page.getByLabel("Address line 1").fill("1 Initech Way")
    await page.getByLabel("City").fill("Austin")
    await page.getByLabel("State").fill("TX")
    await page.getByLabel("ZIP or postal code").fill("73301")
    await page.getByLabel("Country", { exact: true }).fill("US")
    await page.getByRole("button", { name: "Save address" }).click()
    await page.waitForLoadState()
    expect(await page.getByRole("status").textContent()).toBe("Saved: business address.")

    await page.locator("#new-first_name").fill("Peter")
    await page.locator("#new-last_name").fill("Gibbons")
    await page.locator("#new-email").fill("peter@initech.example")
    await page.locator("#new-role-director").check()
    await page.getByRole("button", { name: "Add person" }).click()
    await page.waitForLoadState()
    expect(await page.getByRole("status").textContent()).toBe("Saved: the person is added.")
    expect(await page.locator("details.person .person-name").textContent()).toBe("Peter Gibbons")
    await screenshotBothWidths(page, "entity-feature-saved")
    expect(await featureStatus()).toBe("CREATED")

    await page.getByRole("button", { name: "Submit application" }).click()
    await page.waitForURL(`${site.origin}/**`)
    expect(page.url()).toBe(`${site.origin}/settings/account?from=hosted`)
    expect(await featureStatus()).toBe("SUBMITTED")
    const onboarding = await service.request("GET", `${base}/onboarding`, { token })
    expect(onboarding.body.data).toMatchObject({
      status: "submitted",
      business_details: {
        business_name: "Initech LLC",
        website_url: "https://initech.example",
        business_address: { line1: "1 Initech Way", city: "Austin", postal_code: "73301" },
      },
      persons: [{ first_name: "Peter", last_name: "Gibbons", roles: ["director"] }],
    })

    const moved = await service.request("POST", `/api/v1/sandbox/features/${applicationId}/status`, {
      token,
      body: { status: "ACTION_REQUIRED" },
    })
    expect(moved.status, moved.text).toBe(200)
    await page.goto(`${service.url}/entity-feature?token=${await issue("pending_action")}`)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("More information needed")
    expect(await page.getByLabel("Address line 1").inputValue()).toBe("1 Initech Way")
    await screenshotBothWidths(page, "entity-feature-pending-action")
    await page.getByRole("button", { name: "Submit again" }).click()
    await page.waitForURL(`${site.origin}/**`)
    expect(await featureStatus()).toBe("SUBMITTED")
    expect(site.visits).toEqual(["/settings/account?from=hosted", "/settings/account?from=hosted"])
    await context.close()
  })
})
