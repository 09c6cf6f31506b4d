import { type EntityType, type RequirementsSchema, readPath, validateBeneficiaryDetails } from "@payments-engine/core"
import fc from "fast-check"
import { isValidIBAN } from "ibantools"
import { describe, expect, it } from "vitest"
import { sandboxBeneficiaryDetails, sandboxExamples, sandboxTestAccounts } from "./sandbox-examples.ts"
import { createSandboxPaymentProvider } from "./sandbox-payment-provider.ts"
import { sandboxCountries, type sandboxRequirements } from "./sandbox-requirements.ts"

const provider = createSandboxPaymentProvider()
const entityTypes: ReadonlyArray<EntityType> = ["COMPANY", "PERSONAL"]

/** Every country, method and entity type the tables serve, with the query that selects it. */
const combinations = Object.entries(sandboxCountries).flatMap(([country, row]) =>
  row.methods.flatMap((method) =>
    entityTypes.map((entityType) => ({
      country,
      method: method.clearingSystem?.value ?? "SWIFT",
      entityType,
      query: {
        countryCode: country,
        currencyCode: row.currency,
        entityType,
        transferMethod: method.transferMethod,
        ...(method.clearingSystem ? { localClearingSystem: method.clearingSystem.value } : {}),
      },
    })),
  ),
)

const schemaOf = async (query: Parameters<typeof provider.bankAccountRequirements>[0]) => {
  const answer = await provider.bankAccountRequirements(query)
  if (!answer.ok) throw new Error(answer.message)
  return answer.schema
}

/** A copy of `details` with `value` at the dot path (undefined deletes it). */
const withPath = (details: unknown, path: string, value: unknown): Record<string, unknown> => {
  const [head, ...rest] = path.split(".")
  const copy: Record<string, unknown> = { ...(details as Record<string, unknown>) }
  if (rest.length === 0) {
    if (value === undefined) delete copy[head!]
    else copy[head!] = value
  } else {
    copy[head!] = withPath(copy[head!] ?? {}, rest.join("."), value)
  }
  return copy
}

const countries = ["US", "CA", "MX", "GB", "AT", "BE", "DE", "ES", "FI", "FR", "IE", "IT", "NL", "PT"]

describe("the sandbox's bank-account requirements", () => {
  it("serve at least US, GB, the euro area, AU, CA, IN, SG, JP and MX, each by a local method and SWIFT", async () => {
    expect(Object.keys(sandboxCountries).sort()).toEqual([...countries, "AU", "IN", "SG", "JP"].sort())
    const table = Object.fromEntries(
      await Promise.all(
        Object.entries(sandboxCountries).map(async ([country, row]) => [
          `${country}/${row.currency}`,
          await provider.paymentMethods({ countryCode: country, currencyCode: row.currency, entityType: "COMPANY" }),
        ]),
      ),
    )
    const sepa = [
      { transfer_method: "LOCAL", local_clearing_systems: ["SEPA"] },
      { transfer_method: "SWIFT", local_clearing_systems: [] },
    ]
    const local = (...systems: string[]) => [
      { transfer_method: "LOCAL", local_clearing_systems: systems },
      { transfer_method: "SWIFT", local_clearing_systems: [] },
    ]
    expect(table).toEqual({
      "US/USD": local("ACH", "FEDWIRE"),
      "CA/CAD": local("EFT"),
      "MX/MXN": local("SPEI"),
      "GB/GBP": local("FPS"),
      ...Object.fromEntries(
        ["AT", "BE", "DE", "ES", "FI", "FR", "IE", "IT", "NL", "PT"].map((c) => [`${c}/EUR`, sepa]),
      ),
      "AU/AUD": local("BECS"),
      "IN/INR": local("NEFT"),
      "SG/SGD": local("FAST"),
      "JP/JPY": local("ZENGIN"),
    })
  })

  it("accept the test account of every country, method and entity type, and name its payment method", async () => {
    const paymentMethods: Record<string, string> = {}
    for (const { country, method, entityType, query } of combinations) {
      const schema = await schemaOf(query)
      const details = sandboxBeneficiaryDetails(country, method, entityType)
      expect({ country, method, entityType, errors: validateBeneficiaryDetails(details, schema) }).toEqual({
        country,
        method,
        entityType,
        errors: [],
      })
      expect(schema.condition).toEqual({
        account_currency: sandboxCountries[country]!.currency,
        bank_country_code: country,
        entity_type: entityType,
        local_clearing_system: method === "SWIFT" ? null : method,
        transfer_method: method === "SWIFT" ? "SWIFT" : "LOCAL",
      })
      paymentMethods[`${country}_${method}`] = schema.payment_method
    }
    expect(Object.keys(sandboxExamples).sort()).toEqual(Object.keys(paymentMethods).sort())
    expect(paymentMethods).toMatchObject({
      US_ACH: "ach",
      US_FEDWIRE: "wire",
      US_SWIFT: "swift",
      GB_FPS: "fps",
      DE_SEPA: "sepa",
      AU_BECS: "becs",
      CA_EFT: "eft",
      IN_NEFT: "neft",
      SG_FAST: "fast",
      JP_ZENGIN: "zengin",
      MX_SPEI: "spei",
      MX_SWIFT: "swift",
    })
  })

  it("are well formed: unique paths, keys from paths, options for choices, defaults that pass their own field", async () => {
    for (const { query } of combinations) {
      const schema = await schemaOf(query)
      const paths = schema.fields.map((f) => f.path)
      expect(new Set(paths).size).toBe(paths.length)
      for (const field of schema.fields) {
        expect(field.field.key).toBe(field.path.split(".").at(-1))
        expect(field.field.label.length).toBeGreaterThan(0)
        if (field.field.type === "INPUT") expect(field.rule).not.toBeNull()
        else expect(field.field.options.length).toBeGreaterThan(0)
        if (field.rule !== null) expect(() => new RegExp(field.rule!.pattern, "u")).not.toThrow()
        if (field.field.default !== null) {
          const value = field.field.type === "TRANSFER_METHOD" ? [field.field.default] : field.field.default
          const alone: RequirementsSchema = { ...schema, fields: [field] }
          expect(validateBeneficiaryDetails(withPath({}, field.path, value), alone)).toEqual([])
        }
      }
      for (const path of [
        "entity_type",
        "transfer_methods",
        "bank_details.account_name",
        "bank_details.account_number",
        "bank_details.bank_country_code",
        "bank_details.account_currency",
        "address.country_code",
        "address.street_address",
        "address.city",
      ]) {
        expect({ path, required: schema.fields.find((f) => f.path === path)?.required }).toEqual({
          path,
          required: true,
        })
      }
    }
  })

  it("label the account holder by entity type", async () => {
    const label = async (entityType: EntityType) =>
      (await schemaOf({ countryCode: "GB", currencyCode: "GBP", entityType })).fields.find(
        (f) => f.path === "bank_details.account_name",
      )?.field.label
    expect([await label("COMPANY"), await label("PERSONAL")]).toEqual(["Business name", "Full name"])
  })

  it("give another schema for every other value of a refresh field", async () => {
    for (const { query } of combinations) {
      const schema = await schemaOf(query)
      const refreshing = schema.fields.filter((f) => f.field.refresh)
      expect(refreshing.map((f) => f.path)).toEqual(
        query.transferMethod === "LOCAL"
          ? ["entity_type", "transfer_methods", "bank_details.local_clearing_system"]
          : ["entity_type", "transfer_methods"],
      )
      for (const field of refreshing) {
        for (const { value } of field.field.options.filter((o) => o.value !== field.field.default)) {
          const changed = {
            entity_type: { ...query, entityType: value as EntityType },
            transfer_methods: { ...query, transferMethod: value, localClearingSystem: undefined },
            "bank_details.local_clearing_system": { ...query, localClearingSystem: value },
          }[field.path]!
          const other = await schemaOf(changed)
          expect(other).not.toEqual(schema)
          expect(other.fields.find((f) => f.path === field.path)?.field.default).toBe(value)
        }
      }
    }
  })

  it("use the country's IBAN for SEPA and SWIFT where it has IBANs, the BIC of the bank's country for SWIFT", async () => {
    for (const { country, method, query } of combinations) {
      const schema = await schemaOf(query)
      const account = schema.fields.find((f) => f.path === "bank_details.account_number")!
      const bic = schema.fields.find((f) => f.path === "bank_details.account_routing_value1")
      const usesIban =
        !["US", "CA", "MX", "AU", "IN", "SG", "JP"].includes(country) && (method === "SEPA" || method === "SWIFT")
      expect({ country, method, iban: account.rule?.type === "IBAN" }).toEqual({ country, method, iban: usesIban })
      if (method === "SWIFT") {
        expect(bic).toMatchObject({ required: true, field: { label: "SWIFT/BIC code" } })
        expect(new RegExp(bic!.rule!.pattern).test(`ABCD${country}2L`)).toBe(true)
        expect(new RegExp(bic!.rule!.pattern).test(`ABCD${country}2LXXX`)).toBe(true)
        expect(new RegExp(bic!.rule!.pattern).test("ABCDZZ2L")).toBe(false)
      }
      if (method === "SEPA") expect(bic?.required).toBe(false)
    }
    const sepa = await schemaOf({ countryCode: "DE", currencyCode: "EUR", entityType: "COMPANY" })
    const {
      account_routing_type1: _t,
      account_routing_value1: _v,
      ...withoutBic
    } = sandboxExamples.DE_SEPA.bank_details
    expect(validateBeneficiaryDetails({ ...sandboxExamples.DE_SEPA, bank_details: withoutBic }, sepa)).toEqual([])
    const french = {
      ...sandboxExamples.DE_SEPA,
      bank_details: { ...withoutBic, account_number: "FR1420041010050500013M02606" },
    }
    expect(validateBeneficiaryDetails(french, sepa)).toEqual([
      { field: "beneficiary_details.bank_details.account_number", message: "is too long (maximum is 22 characters)" },
    ])
  })

  it("refuse any test account with one checksummed digit changed, naming the checksum", async () => {
    const checked = (
      await Promise.all(
        combinations
          .filter((c) => c.entityType === "COMPANY")
          .map(async (c) => ({ ...c, schema: await schemaOf(c.query) })),
      )
    ).flatMap(({ country, method, schema }) =>
      schema.fields
        // a BIC has no check digit: its check is the pattern's and the registered country's
        .filter((f) => f.rule !== null && f.rule.type !== "REGEX" && f.rule.type !== "BIC")
        .map((field) => ({ details: sandboxBeneficiaryDetails(country, method), schema, field })),
    )
    expect(checked.length).toBeGreaterThan(20)
    const messages = {
      IBAN: "is not a valid IBAN",
      ABA_ROUTING_NUMBER: "is not a valid ABA routing number",
      CLABE: "is not a valid CLABE",
    }
    fc.assert(
      fc.property(
        fc.constantFrom(...checked),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        ({ details, schema, field }, at, by) => {
          const value = readPath(details, field.path) as string
          const positions = [...value].flatMap((c, i) => (i >= 2 && /[0-9]/.test(c) ? [i] : []))
          const i = positions[at % positions.length]!
          const wrong = value.slice(0, i) + String((Number(value[i]) + by) % 10) + value.slice(i + 1)
          const rule = field.rule!.type as keyof typeof messages
          expect(validateBeneficiaryDetails(withPath(details, field.path, wrong), schema)).toEqual([
            { field: `beneficiary_details.${field.path}`, message: messages[rule] },
          ])
        },
      ),
    )
  })

  it("accept a one-character change of a test IBAN exactly when ibantools does", async () => {
    const ibanForms = await Promise.all(
      combinations
        .filter((c) => c.entityType === "COMPANY")
        .map(async (c) => ({
          details: sandboxBeneficiaryDetails(c.country, c.method),
          schema: await schemaOf(c.query),
        })),
    )
    const withIban = ibanForms.filter(({ schema }) =>
      schema.fields.some((f) => f.path === "bank_details.account_number" && f.rule?.type === "IBAN"),
    )
    expect(withIban.length).toBeGreaterThanOrEqual(21)
    let changes = 0
    const disagreements: Array<string> = []
    for (const { details, schema } of withIban) {
      const iban = readPath(details, "bank_details.account_number") as string
      ;[...iban].forEach((original, i) => {
        for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") {
          if (c === original) continue
          const changed = iban.slice(0, i) + c + iban.slice(i + 1)
          const accepted = validateBeneficiaryDetails(withPath(details, "bank_details.account_number", changed), schema)
          changes++
          if ((accepted.length === 0) !== isValidIBAN(changed)) disagreements.push(changed)
        }
      })
    }
    expect(changes).toBeGreaterThan(7_000)
    expect(disagreements).toEqual([])
  })

  it("report exactly the required field that is missing from a test account", async () => {
    const cases = await Promise.all(
      combinations.map(async (c) => ({
        details: sandboxBeneficiaryDetails(c.country, c.method, c.entityType),
        schema: await schemaOf(c.query),
      })),
    )
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.nat(), ({ details, schema }, at) => {
        const present = schema.fields.filter((f) => readPath(details, f.path) !== undefined)
        const field = present[at % present.length]!
        expect(validateBeneficiaryDetails(withPath(details, field.path, undefined), schema)).toEqual(
          field.required ? [{ field: `beneficiary_details.${field.path}`, message: "is required" }] : [],
        )
      }),
    )
  })

  it("explain what they cannot serve", async () => {
    const ask = (query: Partial<Parameters<typeof sandboxRequirements>[0]>) =>
      provider.bankAccountRequirements({ countryCode: "US", currencyCode: "USD", entityType: "COMPANY", ...query })
    expect(await ask({ currencyCode: "EUR" })).toEqual({
      ok: false,
      message: "Bank country US does not support currency EUR",
    })
    expect(await ask({ countryCode: "DE", currencyCode: "USD" })).toEqual({
      ok: false,
      message: "Bank country DE does not support currency USD",
    })
    expect(await ask({ countryCode: "ZZ" })).toEqual({ ok: false, message: "Bank country ZZ is not supported" })
    expect(await ask({ transferMethod: "CHEQUE" })).toEqual({
      ok: false,
      message: "Transfer method CHEQUE is not supported for bank country US (supported: LOCAL, SWIFT)",
    })
    expect(await ask({ countryCode: "GB", currencyCode: "GBP", localClearingSystem: "ACH" })).toEqual({
      ok: false,
      message: "Local clearing system ACH is not supported for bank country GB (supported: FPS)",
    })
    expect(await ask({ transferMethod: "LOCAL", localClearingSystem: "SEPA" })).toEqual({
      ok: false,
      message: "Local clearing system SEPA is not supported for bank country US (supported: ACH, FEDWIRE)",
    })
    for (const [countryCode, currencyCode] of [
      ["US", "EUR"],
      ["ZZ", "USD"],
      ["GB", "EUR"],
    ] as const) {
      expect(await provider.paymentMethods({ countryCode, currencyCode, entityType: "COMPANY" })).toEqual([])
    }
  })

  it("default to the first local method, ignore a clearing system given with SWIFT, and read any case", async () => {
    const defaulted = await schemaOf({ countryCode: "US", currencyCode: "USD", entityType: "COMPANY" })
    expect([defaulted.condition.local_clearing_system, defaulted.payment_method]).toEqual(["ACH", "ach"])
    const wire = await schemaOf({
      countryCode: "US",
      currencyCode: "USD",
      entityType: "COMPANY",
      localClearingSystem: "FEDWIRE",
    })
    expect([wire.condition.transfer_method, wire.payment_method]).toEqual(["LOCAL", "wire"])
    const swift = await schemaOf({
      countryCode: "US",
      currencyCode: "USD",
      entityType: "COMPANY",
      transferMethod: "SWIFT",
      localClearingSystem: "ACH",
    })
    expect([swift.condition.local_clearing_system, swift.payment_method]).toEqual([null, "swift"])
    expect(swift.fields.map((f) => f.path)).not.toContain("bank_details.local_clearing_system")
    const lower = await schemaOf({
      countryCode: "us",
      currencyCode: "usd",
      entityType: "COMPANY",
      transferMethod: "local",
      localClearingSystem: "fedwire",
    })
    expect(lower).toEqual(wire)
  })

  it("keep the test accounts in step with the tables", () => {
    for (const [country, row] of Object.entries(sandboxCountries)) {
      const methods = row.methods.map((m) => m.clearingSystem?.value ?? "SWIFT")
      expect({
        country,
        methods: Object.keys(sandboxTestAccounts[country as keyof typeof sandboxTestAccounts]),
      }).toEqual({
        country,
        methods,
      })
    }
    expect(() => sandboxBeneficiaryDetails("US", "SEPA")).toThrow("no test account for US SEPA")
  })
})
