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
 * A person completes the multi-currency onboarding on `/entity-feature` in real Chromium, without
 * JavaScript, on a page branded as the workspace: business details (one refused next to its
 * field), address (its country picked by name), a person; Submit pressed with fields typed and
 * never saved keeps them and says what is missing; then submit, and the return URL; the feature is
 * SUBMITTED through the API, and the link opened again says so. Then the pending-action page.
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
    await brandWorkspace(service, token, context)
    const page = await context.newPage()
    page.setDefaultTimeout(5000)
    const onboardingToken = await issue("onboarding")
    const opened = await page.goto(`${service.url}/entity-feature?token=${onboardingToken}`)
    expect(opened?.status()).toBe(200)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Open your multi-currency account")
    expect(await page.getByLabel("Legal business name").inputValue()).toBe("Initech LLC")
    expect(await page.getByLabel("Contact e-mail").inputValue()).toBe("ops@initech.example")
    await expectBranded(page)
    expect(await requiredLabels(page)).toEqual([
      "Legal business name *",
      "Address line 1 *",
      "City *",
      "ZIP or postal code *",
      "Country *",
    ])
    await screenshotBothWidths(page, "entity-feature")

    // Typed, never saved, then Submit: nothing typed is lost, and what is missing is said by its field.
    await page.getByLabel("Legal business name").fill("Initech Holdings LLC")
    await page.getByLabel("Address line 1").fill("1 Initech Way")
    await page.getByRole("button", { name: "Submit application" }).click()
    await page.waitForLoadState()
    expect(await page.getByRole("alert").first().textContent()).toContain("Some details are still missing")
    expect(await page.getByLabel("Legal business name").inputValue()).toBe("Initech Holdings LLC")
    expect(await page.getByLabel("Address line 1").inputValue()).toBe("1 Initech Way")
    expect(await page.locator("#business_address-city-error").textContent()).toBe("City is required before submitting")
    expect(await featureStatus()).toBe("CREATED")
    await screenshotBothWidths(page, "entity-feature-submit-unsaved")

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

    expect(await page.getByLabel("Address line 1").inputValue()).toBe("1 Initech Way")
    await page.getByLabel("City").fill("Austin")
    await page.getByLabel("State").fill("TX")
    await page.getByLabel("ZIP or postal code").fill("73301")
    await page.locator("#business_address-country_alpha2").selectOption({ label: "United States" })
    await page.getByRole("button", { name: "Save address" }).click()
    await page.waitForLoadState()
    expect(await page.getByRole("status").textContent()).toBe("Saved: business address.")
    expect(await page.locator("#business_address-country_alpha2").inputValue()).toBe("US")

    await page.locator("#new-first_name").fill("Peter")
    await page.locator("#new-last_name").fill("Gibbons")
    await page.locator("#new-email").fill("peter@initech.example")
    await page.locator("#new-nationality").selectOption({ label: "United Kingdom" })
    await page.locator("#new-roles-director").check()
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
        business_name: "Initech Holdings LLC",
        website_url: "https://initech.example",
        business_address: { line1: "1 Initech Way", city: "Austin", postal_code: "73301" },
      },
      persons: [{ first_name: "Peter", last_name: "Gibbons", nationality: "GB", roles: ["director"] }],
    })

    // The same link opened again says the application is submitted, not that the link is bad.
    await page.goto(`${service.url}/entity-feature?token=${onboardingToken}`)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Application submitted")
    expect(await page.getByText("This application was already submitted with this link").count()).toBe(1)
    await expectBranded(page)
    await screenshotBothWidths(page, "entity-feature-already-submitted")

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
