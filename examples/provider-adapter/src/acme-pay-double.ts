import { divide, formatDecimal, parseDecimal } from "@payments-engine/core"
import type { AcmeRequest, AcmeResponse, AcmeTransport } from "./acme-pay-provider.ts"

/*
 * A recorded-response test double of the made-up Acme Pay API: canned answers per route (its
 * countries, routes, forms and rates), and what a real provider does with an Idempotency-Key:
 * the first answer of a key, again for every repeat. Not a provider, and not a recording of one.
 */

const accountName = { path: "bank_details.account_name", label: "Account name", required: true, pattern: "^.{1,140}$" }
const accountNumber = {
  path: "bank_details.account_number",
  label: "Account number",
  required: true,
  pattern: "^[0-9]{4,17}$",
}

const forms: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  "US/USD/LOCAL/ACH": {
    scheme: "LOCAL",
    rail: "ACH",
    payment_method: "ach",
    fields: [
      accountName,
      accountNumber,
      {
        path: "bank_details.account_routing_value1",
        label: "ABA routing number",
        required: true,
        pattern: "^[0-9]{9}$",
      },
    ],
  },
  "US/USD/SWIFT/": {
    scheme: "SWIFT",
    rail: null,
    payment_method: "swift",
    fields: [
      accountName,
      accountNumber,
      { path: "bank_details.swift_code", label: "SWIFT code", required: true, pattern: "^[A-Z0-9]{8}([A-Z0-9]{3})?$" },
    ],
  },
}

const routes: Readonly<Record<string, ReadonlyArray<{ scheme: string; rails: ReadonlyArray<string> }>>> = {
  "US/USD": [
    { scheme: "LOCAL", rails: ["ACH"] },
    { scheme: "SWIFT", rails: [] },
  ],
}

/** Units per US dollar; cross rates divided exactly, to 8 decimals, as the recording shows them. */
const perUsd: Readonly<Record<string, string>> = { USD: "1", EUR: "0.92", GBP: "0.79", JPY: "149.5", BHD: "0.376" }

export type AcmeRoute = "POST /recipients" | "POST /transfers"

/** The double, plus the faults a test plants in its transport. */
export interface AcmePayDouble {
  readonly transport: AcmeTransport
  /** The next request to `route` is answered by the provider, then the answer is lost. */
  loseNext(route: AcmeRoute): void
  /** The next request to `route` never reaches the provider. */
  refuseNext(route: AcmeRoute): void
}

const ok = (body: unknown, status = 200): AcmeResponse => ({ status, body })

export const createAcmePayDouble = (): AcmePayDouble => {
  const recipients = new Map<string, string>()
  const transfers = new Map<string, Readonly<Record<string, unknown>>>()
  const faults = new Map<AcmeRoute, "lose" | "refuse">()
  let next = 0

  const answer = (request: AcmeRequest): AcmeResponse => {
    const url = new URL(request.path, "https://api.acme-pay.invalid")
    const params = url.searchParams
    const key = request.headers?.["Idempotency-Key"]
    if (request.method === "GET" && url.pathname === "/countries") return ok({ countries: ["US"] })
    if (request.method === "GET" && url.pathname === "/routes") {
      const found = routes[`${params.get("country")}/${params.get("currency")}`]
      return found ? ok({ routes: found }) : ok({ error: "no route" }, 404)
    }
    if (request.method === "GET" && url.pathname === "/forms") {
      const country = `${params.get("country")}/${params.get("currency")}`
      const first = routes[country]?.[0]
      const scheme = params.get("scheme") ?? first?.scheme
      const rail = params.get("scheme") === null ? (first?.rails[0] ?? "") : (params.get("rail") ?? "")
      const form = forms[`${country}/${scheme}/${rail}`]
      return form ? ok(form) : ok({ error: `Acme Pay has no ${scheme} ${rail} form for ${country}` }, 422)
    }
    if (request.method === "GET" && url.pathname === "/rates") {
      const from = parseDecimal(perUsd[params.get("from") ?? ""] ?? "")
      const to = parseDecimal(perUsd[params.get("to") ?? ""] ?? "")
      if (from === undefined || to === undefined) return ok({ error: "unknown currency" }, 400)
      return ok({ rate: formatDecimal(divide(to, from, 8), 8) })
    }
    if (request.method === "POST" && url.pathname === "/recipients" && key !== undefined) {
      const id = recipients.get(key) ?? `rcp_${++next}`
      recipients.set(key, id)
      return ok({ id }, 201)
    }
    if (request.method === "POST" && url.pathname === "/transfers" && key !== undefined) {
      const body = request.body as { reference: string; sell: { amount_minor: string } }
      const transfer = transfers.get(body.reference) ?? {
        id: `trf_${++next}`,
        ...(body.sell.amount_minor.endsWith("13")
          ? { state: "rejected", reason: "Test amount ending in 13" }
          : { state: "paid" }),
      }
      transfers.set(body.reference, transfer)
      return ok(transfer, 201)
    }
    const byReference = /^\/transfers\/by-reference\/(.+)$/.exec(url.pathname)
    if (request.method === "GET" && byReference) {
      const transfer = transfers.get(decodeURIComponent(byReference[1] ?? ""))
      return transfer ? ok(transfer) : ok({ error: "not found" }, 404)
    }
    return ok({ error: "not found" }, 404)
  }

  return {
    transport: async (request) => {
      const route = `${request.method} ${request.path}` as AcmeRoute
      const fault = faults.get(route)
      faults.delete(route)
      if (fault === "refuse") throw new Error(`connect ECONNREFUSED (${route})`)
      const response = answer(request)
      if (fault === "lose") throw new Error(`socket hang up after ${route}`)
      return response
    },
    loseNext: (route) => faults.set(route, "lose"),
    refuseNext: (route) => faults.set(route, "refuse"),
  }
}
