import type { FieldError } from "../domain-error.ts"
import type { BankAccountRequirements, FieldRule, RequirementField } from "../model/types/bank-account-requirements.ts"
import { isValidAbaRoutingNumber, isValidBic, isValidClabe, isValidIban } from "./bank-account-checksums.ts"

/**
 * The value at a dot path of a plain object, or undefined when any step is missing or is not an
 * object. Only own properties are read, so `"constructor"` or `"__proto__"` find nothing.
 *
 * @example
 * readPath({ bank_details: { account_number: "1" } }, "bank_details.account_number") // "1"
 * readPath({ bank_details: "x" }, "bank_details.account_number") // undefined
 */
export const readPath = (details: unknown, path: string): unknown => {
  let current = details
  for (const key of path.split(".")) {
    if (typeof current !== "object" || current === null || Array.isArray(current)) return undefined
    if (!Object.hasOwn(current, key)) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}

/** The messages of {@link validateBeneficiaryDetails}, one per kind of problem. */
export const beneficiaryMessages = {
  notAnObject: "must be an object",
  required: "is required",
  notAString: "must be a string",
  notAList: "must be an array of strings",
  oneOf: (values: ReadonlyArray<string>) => `must be one of: ${values.join(", ")}`,
  tooShort: (minimum: number) => `is too short (minimum is ${minimum} characters)`,
  tooLong: (maximum: number) => `is too long (maximum is ${maximum} characters)`,
  invalid: "is invalid",
  checksum: {
    IBAN: "is not a valid IBAN",
    BIC: "is not a valid BIC",
    ABA_ROUTING_NUMBER: "is not a valid ABA routing number",
    CLABE: "is not a valid CLABE",
  },
} as const

const checksums: Record<Exclude<FieldRule["type"], "REGEX">, (value: string) => boolean> = {
  IBAN: isValidIban,
  BIC: isValidBic,
  ABA_ROUTING_NUMBER: isValidAbaRoutingNumber,
  CLABE: isValidClabe,
}

const patterns = new Map<string, RegExp>()
/** The rule's pattern, compiled once; with the `u` flag (code points) where the pattern allows it. */
const compiled = (pattern: string): RegExp => {
  let regex = patterns.get(pattern)
  if (regex === undefined) {
    try {
      regex = new RegExp(pattern, "u")
    } catch {
      regex = new RegExp(pattern)
    }
    patterns.set(pattern, regex)
  }
  return regex
}

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "")

/** The first problem of one string against the field's options and rule. */
const problemWithText = (field: RequirementField, value: string): string | undefined => {
  const { type, options } = field.field
  if (type !== "INPUT" && options.length > 0 && !options.some((o) => o.value === value)) {
    return beneficiaryMessages.oneOf(options.map((o) => o.value))
  }
  const rule = field.rule
  if (rule === null) return undefined
  const { minimum_length: minimum, maximum_length: maximum } = rule
  const length = [...value].length
  if (minimum !== null && length < minimum) return beneficiaryMessages.tooShort(minimum)
  if (maximum !== null && length > maximum) return beneficiaryMessages.tooLong(maximum)
  if (rule.pattern !== "" && !compiled(rule.pattern).test(value)) return beneficiaryMessages.invalid
  if (rule.type !== "REGEX" && !checksums[rule.type](value)) return beneficiaryMessages.checksum[rule.type]
  return undefined
}

/** The first problem of a field's value, or undefined when it is fine (an absent optional value is). */
const problemWith = (field: RequirementField, value: unknown): string | undefined => {
  if (field.field.type === "TRANSFER_METHOD") {
    // `transfer_methods` is a list of strings (["LOCAL"]); each must be one of the options
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) {
      return field.required ? beneficiaryMessages.required : undefined
    }
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) return beneficiaryMessages.notAList
    return value.map((v: string) => problemWithText(field, v)).find((problem) => problem !== undefined)
  }
  if (isBlank(value)) return field.required ? beneficiaryMessages.required : undefined
  if (typeof value !== "string") return beneficiaryMessages.notAString
  return problemWithText(field, value)
}

/**
 * Checks `beneficiary_details` against every enabled field of the provider's requirements schema
 * and returns every failure at once, one per field, on its dotted path
 * (`beneficiary_details.<path>`): a missing required value ("is required"; blank text counts as
 * missing), a value that is not a string, a choice outside the options, a length outside the
 * rule, a pattern mismatch ("is invalid"), the checks of IBANs and BICs (ibantools), and the
 * checksums of ABA routing numbers and CLABEs. Values the schema does not mention are ignored. The field of type TRANSFER_METHOD
 * (`transfer_methods`) takes a list of strings.
 *
 * @example
 * declare const schema: RequirementsSchema
 * validateBeneficiaryDetails({ entity_type: "COMPANY", bank_details: {} }, schema)
 * // [{ field: "beneficiary_details.bank_details.account_number", message: "is required" }, ...]
 * validateBeneficiaryDetails("US", schema)
 * // [{ field: "beneficiary_details", message: "must be an object" }]
 */
export const validateBeneficiaryDetails = (
  details: unknown,
  schema: Pick<BankAccountRequirements, "fields">,
): ReadonlyArray<FieldError> => {
  if (typeof details !== "object" || details === null || Array.isArray(details)) {
    return [{ field: "beneficiary_details", message: beneficiaryMessages.notAnObject }]
  }
  return schema.fields.flatMap((field) => {
    if (!field.enabled) return []
    const message = problemWith(field, readPath(details, field.path))
    return message === undefined ? [] : [{ field: `beneficiary_details.${field.path}`, message }]
  })
}
