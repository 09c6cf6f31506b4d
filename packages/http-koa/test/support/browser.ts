import { mkdirSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { openTestSqlite } from "@payments-engine/adapters/testing"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, expect } from "vitest"
import { startTestService, type TestService } from "./test-service.ts"

/**
 * Real Chromium for the hosted pages' browser tests: Debian's `chromium` package (installed by
 * `.ci/run` when missing), driven by playwright-core. `CHROMIUM_PATH` points elsewhere.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

/**
 * A headless Chromium that makes no connection of its own: this machine's network is closed, and
 * a browser reaching for Google's hosts at every start is slow and noisy.
 */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  })

/** The two widths every page is shown at: a desktop window and a 375 px phone. */
export const viewports = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 375, height: 812 },
} as const

/**
 * `docs/screenshots/` when `SCREENSHOTS=update` (`npm run screenshots`), else a temporary folder:
 * an ordinary test run takes the screenshots too, and leaves the committed ones alone.
 */
const screenshotFolder = (() => {
  const folder =
    process.env.SCREENSHOTS === "update"
      ? fileURLToPath(new URL("../../../../docs/screenshots", import.meta.url))
      : join(tmpdir(), "payments-engine-screenshots")
  mkdirSync(folder, { recursive: true })
  return folder
})()

/**
 * Saves `page` as it is now at desktop and phone width (`<name>-desktop.png`, `<name>-phone.png`)
 * and checks that at phone width nothing is wider than the screen (no sideways scrolling).
 */
export const screenshotBothWidths = async (page: Page, name: string): Promise<void> => {
  const before = page.viewportSize()
  await page.setViewportSize(viewports.desktop)
  await page.screenshot({ path: join(screenshotFolder, `${name}-desktop.png`), fullPage: true })
  await page.setViewportSize(viewports.phone)
  const widest = await page.evaluate(() => document.documentElement.scrollWidth)
  expect(widest, `${name} is wider than a phone`).toBeLessThanOrEqual(viewports.phone.width)
  await page.screenshot({ path: join(screenshotFolder, `${name}-phone.png`), fullPage: true })
  if (before !== null) await page.setViewportSize(before)
}

/** The branding the browser tests give a workspace: its logo is served by {@link brandWorkspace}, the network being closed. */
export const testBranding = {
  display_name: "Initech Payments",
  logo_url: "https://cdn.initech.example/logo.svg",
  accent_color: "#7c3aed",
} as const

const logoSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="40" viewBox="0 0 96 40"><rect width="96" height="40" rx="8" fill="#7c3aed"/><text x="48" y="26" font-family="sans-serif" font-size="15" font-weight="700" fill="#fff" text-anchor="middle">INITECH</text></svg>`

/**
 * Gives the workspace of `token` the {@link testBranding} through the API, and has `context`
 * answer its logo's https URL as the workspace's CDN would.
 */
export const brandWorkspace = async (service: TestService, token: string, context: BrowserContext) => {
  const branded = await service.request("PATCH", "/api/v1/workspace/branding", { token, body: testBranding })
  expect(branded.status, branded.text).toBe(200)
  await context.route(testBranding.logo_url, (route) =>
    route.fulfill({ status: 200, contentType: "image/svg+xml", body: logoSvg }),
  )
}

/**
 * Checks that `page` shows the {@link testBranding} as a person sees it: the name, the logo
 * loaded (the page's policy let it in), the accent colour on its main button and header rule (the
 * policy let the style in).
 */
export const expectBranded = async (page: Page) => {
  expect(await page.locator("header.brand .brand-name").textContent()).toBe(testBranding.display_name)
  const logoShown = await page
    .locator("header.brand img")
    .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)
  expect(logoShown, "the logo is shown").toBe(true)
  const accent = "rgb(124, 58, 237)"
  const rule = await page.locator("header.brand").evaluate((element) => getComputedStyle(element).borderBottomColor)
  expect(rule, "the accent colour rules the header").toBe(accent)
  const buttons = page.locator("main button[type=submit]:not(.secondary):not(.default-submit)")
  if ((await buttons.count()) > 0) {
    expect(await buttons.first().evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(accent)
  }
}

/** The labels (and legends) of `page` marked required, as read: every hosted page marks them alike. */
export const requiredLabels = (page: Page): Promise<Array<string>> =>
  page
    .locator("label:has(> abbr.required[title=required]), legend:has(> abbr.required[title=required])")
    .allInnerTexts()

/** A stand-in for the embedder's own site: the page a person returns to, answering 200 at any path. */
export interface ReturnSite {
  /** `http://localhost:<port>`: trusted in sandbox mode (DECISIONS "Trusted domains"). */
  readonly origin: string
  /** The paths (with their queries) the site was asked for, in order; its icon left out. */
  readonly visits: ReadonlyArray<string>
  close(): Promise<void>
}

/** Starts a {@link ReturnSite} on a free port. */
export const startReturnSite = async (): Promise<ReturnSite> => {
  const visits: Array<string> = []
  const server: Server = createServer((request, response) => {
    // Chromium asks for the site's icon on its own, sometimes before the test looks: not a visit.
    if (request.url === "/favicon.ico") {
      response.writeHead(404).end()
      return
    }
    visits.push(request.url ?? "/")
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    // An icon of its own (empty, inline): a page without one makes Chromium ask for /favicon.ico
    // some time after loading it, a visit no person made that would race the test's look at `visits`.
    response.end(
      '<!doctype html><link rel="icon" href="data:,"><title>Back at the site</title><h1>Back at the site</h1>',
    )
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://localhost:${port}`,
    visits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** What a hosted page's browser test drives: a sandbox service on a SQLite file, Chromium, and a return site. */
export interface HostedPageRig {
  readonly service: TestService
  readonly browser: Browser
  readonly site: ReturnSite
}

/**
 * Registers the file's `beforeAll` and `afterAll` that start and stop a {@link HostedPageRig};
 * its members are there once `beforeAll` has run.
 *
 * @example
 * const rig = hostedPageRig()
 * it("...", async () => { const { service, browser, site } = rig })
 */
export const hostedPageRig = (): HostedPageRig => {
  const sqlite = openTestSqlite()
  const rig = {} as { service: TestService; browser: Browser; site: ReturnSite }
  beforeAll(async () => {
    rig.service = await startTestService({ storage: await sqlite.factory(), sandbox: true })
    rig.browser = await launchChromium()
    rig.site = await startReturnSite()
  })
  afterAll(async () => {
    await rig.browser?.close()
    await rig.site?.close()
    await rig.service?.close()
    await sqlite.close()
  })
  return rig
}
