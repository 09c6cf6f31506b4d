import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { FieldRule, RequirementField } from "../model/bank-account-requirements.ts"
import type { RequirementsSchema } from "../ports/payment-provider.ts"
import { readPath, validateBeneficiaryDetails } from "./beneficiary-validation.ts"

const field = (
  path: string,
  options: {
    readonly type?: RequirementField["field"]["type"]
    readonly required?: boolean
    readonly enabled?: boolean
    readonly values?: ReadonlyArray<string>
    readonly rule?: Partial<FieldRule> | null
  } = {},
): RequirementField => ({
  enabled: options.enabled ?? true,
  path,
  required: options.required ?? true,
  field: {
    key: path.split(".").at(-1)!,
    label: path,
    type: options.type ?? "INPUT",
    options: (options.values ?? []).map((value) => ({ label: value, value })),
    default: null,
    refresh: false,
  },
  rule:
    options.rule === null || options.rule === undefined
      ? null
      : { type: "REGEX", pattern: "", minimum_length: null, maximum_length: null, ...options.rule },
})

const schemaOf = (fields: ReadonlyArray<RequirementField>): RequirementsSchema => ({
  condition: {
    account_currency: "USD",
    bank_country_code: "US",
    entity_type: "COMPANY",
    local_clearing_system: "ACH",
    transfer_method: "LOCAL",
  },
  fields,
  payment_method: "ach",
})

/** A copy of `details` with `value` at the dot path (undefined deletes it). */
const withPath = (details: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> => {
  const [head, ...rest] = path.split(".")
  const copy = { ...details }
  if (rest.length === 0) {
    if (value === undefined) delete copy[head!]
    else copy[head!] = value
    return copy
  }
  const inner = typeof details[head!] === "object" && details[head!] !== null ? details[head!] : {}
  copy[head!] = withPath(inner as Record<string, unknown>, rest.join("."), value)
  return copy
}

// --- generated schemas: each field comes with values it accepts and one it refuses --------------

interface FieldCase {
  readonly field: RequirementField
  readonly valid: fc.Arbitrary<unknown>
  /** A wrong value and the message it must give. */
  readonly invalid: fc.Arbitrary<readonly [unknown, string]>
}

const digitString = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(""))

const ibanOf = (bban: string) => {
  const numeric = `${bban}DE00`.replace(/[A-Z]/g, (l) => String(l.charCodeAt(0) - 55))
  return `DE${(98n - (BigInt(numeric) % 97n)).toString().padStart(2, "0")}${bban}`
}

const fieldCase = (path: string, required: boolean): fc.Arbitrary<FieldCase> =>
  fc.oneof(
    fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 6 })).map(([min, extra]): FieldCase => {
      const max = min + extra
      return {
        field: field(path, { required, rule: { pattern: `^[0-9]+$`, minimum_length: min, maximum_length: max } }),
        valid: digitString(min, max),
        invalid: fc.oneof(
          digitString(max + 1, max + 4).map((v) => [v, `is too long (maximum is ${max} characters)`] as const),
          digitString(min, max).map((v) => [`${v.slice(0, -1)}x`, "is invalid"] as const),
          fc
            .oneof(fc.integer(), fc.boolean(), fc.constant({}), fc.constant(["1"]))
            .map((v) => [v, "must be a string"] as const),
        ),
      }
    }),
    fc
      .uniqueArray(fc.constantFrom("ACH", "FEDWIRE", "SEPA", "FPS", "SPEI"), { minLength: 1, maxLength: 5 })
      .chain((values) =>
        fc.constantFrom<RequirementField["field"]["type"]>("SELECT", "RADIO").map(
          (type): FieldCase => ({
            field: field(path, { required, type, values }),
            valid: fc.constantFrom(...values),
            invalid: fc.constant(["WIRE", `must be one of: ${values.join(", ")}`] as const),
          }),
        ),
      ),
    fc.constant<FieldCase>({
      field: field(path, { required, values: ["LOCAL", "SWIFT"], type: "TRANSFER_METHOD" }),
      valid: fc.uniqueArray(fc.constantFrom("LOCAL", "SWIFT"), { minLength: 1, maxLength: 2 }),
      invalid: fc.constantFrom(
        [["WIRE"], "must be one of: LOCAL, SWIFT"] as const,
        ["LOCAL", "must be an array of strings"] as const,
        [[1], "must be an array of strings"] as const,
      ),
    }),
    fc.constant<FieldCase>({
      field: field(path, { required, rule: { type: "IBAN", pattern: "^DE[0-9]{20}$", minimum_length: 22 } }),
      valid: digitString(18, 18).map(ibanOf),
      invalid: digitString(18, 18).map((bban) => {
        const iban = ibanOf(bban)
        return [`${iban.slice(0, -1)}${(Number(iban.at(-1)) + 1) % 10}`, "is not a valid IBAN"] as const
      }),
    }),
    fc.constant<FieldCase>({
      field: field(path, { required, rule: { type: "BIC", pattern: "^[A-Z0-9]{8}([A-Z0-9]{3})?$" } }),
      valid: fc.constantFrom("COBADEFFXXX", "NWBKGB2L", "CHASUS33", "BNMXMXMM"),
      invalid: fc.constantFrom(
        ["COBAZZFF", "is not a valid BIC"] as const,
        ["C0BADEFF", "is not a valid BIC"] as const,
      ),
    }),
    fc.constant<FieldCase>({
      field: field(path, { required, rule: { type: "ABA_ROUTING_NUMBER", pattern: "^[0-9]{9}$" } }),
      valid: fc.constantFrom("021000021", "011000015", "026009593"),
      invalid: fc.constant(["021000022", "is not a valid ABA routing number"] as const),
    }),
    fc.constant<FieldCase>({
      field: field(path, { required, rule: { type: "CLABE", pattern: "^[0-9]{18}$" } }),
      valid: fc.constant("002010077777777771"),
      invalid: fc.constant(["002010077777777772", "is not a valid CLABE"] as const),
    }),
  )

/** Distinct paths that never nest in one another: top-level names, or leaves under two objects. */
const paths = fc
  .uniqueArray(fc.tuple(fc.constantFrom("", "bank_details.", "address."), fc.integer({ min: 0, max: 30 })), {
    minLength: 1,
    maxLength: 12,
    selector: ([, n]) => n,
  })
  .map((ps) => ps.map(([parent, n]) => `${parent}field_${n}`))

const schemaCases = paths.chain((ps) =>
  fc.tuple(...ps.map((path) => fc.boolean().chain((required) => fieldCase(path, required)))),
)

/** A schema's cases with one accepted value each, and the details they make. */
const validForm = schemaCases.chain((cases) =>
  fc.tuple(...cases.map((c) => c.valid)).map((values) => ({
    cases,
    schema: schemaOf(cases.map((c) => c.field)),
    details: cases.reduce<Record<string, unknown>>((d, c, i) => withPath(d, c.field.path, values[i]), {}),
  })),
)

describe("validateBeneficiaryDetails", () => {
  it("accepts details made of one valid value per field, with extra values the schema ignores", () => {
    fc.assert(
      fc.property(validForm, fc.string(), ({ schema, details }, extra) => {
        expect(validateBeneficiaryDetails(details, schema)).toEqual([])
        expect(validateBeneficiaryDetails({ ...details, not_in_schema: extra }, schema)).toEqual([])
      }),
    )
  })

  it("reports exactly the deleted field when it is required, and nothing when it is optional", () => {
    fc.assert(
      fc.property(
        validForm,
        fc.nat(),
        fc.constantFrom(undefined, null, "", "   "),
        ({ cases, schema, details }, at, gone) => {
          const { field: deleted } = cases[at % cases.length]!
          const blank = deleted.field.type === "TRANSFER_METHOD" && gone !== undefined && gone !== null ? [] : gone
          expect(validateBeneficiaryDetails(withPath(details, deleted.path, blank), schema)).toEqual(
            deleted.required ? [{ field: `beneficiary_details.${deleted.path}`, message: "is required" }] : [],
          )
        },
      ),
    )
  })

  it("reports every broken field at once, in the schema's order, each with its own message", () => {
    const broken = validForm.chain((form) =>
      fc
        .tuple(...form.cases.map((c) => fc.option(c.invalid, { nil: undefined })))
        .map((wrongs) => ({ ...form, wrongs })),
    )
    fc.assert(
      fc.property(broken, ({ cases, schema, details, wrongs }) => {
        const wrongDetails = cases.reduce((d, c, i) => {
          const wrong = wrongs[i]
          return wrong === undefined ? d : withPath(d, c.field.path, wrong[0])
        }, details)
        const expected = cases.flatMap((c, i) => {
          const wrong = wrongs[i]
          return wrong === undefined ? [] : [{ field: `beneficiary_details.${c.field.path}`, message: wrong[1] }]
        })
        expect(validateBeneficiaryDetails(wrongDetails, schema)).toEqual(expected)
      }),
    )
  })

  it("ignores disabled fields", () => {
    fc.assert(
      fc.property(validForm, ({ cases, schema }) => {
        const disabled = schemaOf(schema.fields.map((f) => ({ ...f, enabled: false })))
        expect(validateBeneficiaryDetails({}, disabled)).toEqual([])
        expect(validateBeneficiaryDetails({}, schema).length).toBe(cases.filter((c) => c.field.required).length)
      }),
    )
  })

  it("refuses details that are not an object with one error on beneficiary_details", () => {
    const schema = schemaOf([field("bank_details.account_number")])
    for (const details of [undefined, null, "US", 12, true, [], [{ bank_details: {} }]]) {
      expect(validateBeneficiaryDetails(details, schema)).toEqual([
        { field: "beneficiary_details", message: "must be an object" },
      ])
    }
  })

  it("gives the spec's wording for each kind of problem", () => {
    const schema = schemaOf([
      field("entity_type", { type: "RADIO", values: ["COMPANY", "PERSONAL"] }),
      field("transfer_methods", { type: "TRANSFER_METHOD", values: ["LOCAL", "SWIFT"] }),
      field("bank_details.local_clearing_system", { type: "SELECT", values: ["ACH", "FEDWIRE"] }),
      field("bank_details.account_name", { rule: { pattern: "^.+$", minimum_length: 2, maximum_length: 5 } }),
      field("bank_details.account_number", { rule: { pattern: "^[0-9]+$", minimum_length: 4, maximum_length: 17 } }),
      field("bank_details.account_routing_value1", { rule: { type: "ABA_ROUTING_NUMBER", pattern: "^[0-9]{9}$" } }),
      field("bank_details.iban", { rule: { type: "IBAN", pattern: "^[A-Z]{2}[0-9]{2}[A-Z0-9]+$" } }),
      field("bank_details.bic", { rule: { type: "BIC", pattern: "^[A-Z0-9]{8,11}$" } }),
      field("bank_details.clabe", { rule: { type: "CLABE", pattern: "^[0-9]{18}$" } }),
      field("address.city", { required: true }),
      field("address.state", { required: false, rule: { pattern: "^[A-Z]{2}$" } }),
    ])
    const details = {
      entity_type: "company",
      transfer_methods: ["WIRE"],
      bank_details: {
        local_clearing_system: "SEPA",
        account_name: "Jane Supplier Ltd",
        account_number: "12x4",
        account_routing_value1: "021000022",
        iban: "GB82WEST12345698765433",
        bic: "WESTXXLL",
        clabe: "002010077777777772",
      },
      address: { city: 42, state: "California" },
    }
    expect(validateBeneficiaryDetails(details, schema)).toEqual([
      { field: "beneficiary_details.entity_type", message: "must be one of: COMPANY, PERSONAL" },
      { field: "beneficiary_details.transfer_methods", message: "must be one of: LOCAL, SWIFT" },
      { field: "beneficiary_details.bank_details.local_clearing_system", message: "must be one of: ACH, FEDWIRE" },
      { field: "beneficiary_details.bank_details.account_name", message: "is too long (maximum is 5 characters)" },
      { field: "beneficiary_details.bank_details.account_number", message: "is invalid" },
      {
        field: "beneficiary_details.bank_details.account_routing_value1",
        message: "is not a valid ABA routing number",
      },
      { field: "beneficiary_details.bank_details.iban", message: "is not a valid IBAN" },
      { field: "beneficiary_details.bank_details.bic", message: "is not a valid BIC" },
      { field: "beneficiary_details.bank_details.clabe", message: "is not a valid CLABE" },
      { field: "beneficiary_details.address.city", message: "must be a string" },
      { field: "beneficiary_details.address.state", message: "is invalid" },
    ])
    expect(
      validateBeneficiaryDetails({ bank_details: { account_number: "12" } }, schemaOf([schema.fields[4]!])),
    ).toEqual([
      { field: "beneficiary_details.bank_details.account_number", message: "is too short (minimum is 4 characters)" },
    ])
  })

  it("counts characters, not UTF-16 units, against the lengths", () => {
    const schema = schemaOf([field("bank_details.account_name", { rule: { pattern: "^.{2,3}$", maximum_length: 3 } })])
    expect(validateBeneficiaryDetails({ bank_details: { account_name: "😀😀😀" } }, schema)).toEqual([])
    expect(validateBeneficiaryDetails({ bank_details: { account_name: "😀😀😀😀" } }, schema)).toEqual([
      { field: "beneficiary_details.bank_details.account_name", message: "is too long (maximum is 3 characters)" },
    ])
  })
})

describe("readPath", () => {
  it("reads what withPath wrote, at any depth", () => {
    const segment = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/).filter((s) => s !== "__proto__")
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.jsonValue(), (segments, value) => {
        const path = segments.join(".")
        expect(readPath(withPath({}, path, value), path)).toEqual(value)
      }),
    )
  })

  it("finds nothing through non-objects, arrays or inherited properties", () => {
    expect(readPath({ a: "x" }, "a.b")).toBeUndefined()
    expect(readPath({ a: ["x"] }, "a.0")).toBeUndefined()
    expect(readPath({ a: null }, "a.b")).toBeUndefined()
    expect(readPath("a", "length")).toBeUndefined()
    expect(readPath({}, "constructor")).toBeUndefined()
    expect(readPath({}, "__proto__")).toBeUndefined()
    expect(readPath({ a: {} }, "a.toString")).toBeUndefined()
  })
})
