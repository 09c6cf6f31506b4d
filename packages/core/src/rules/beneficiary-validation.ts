import type { FieldError } from "../errors.ts"
import type { FieldRule, RequirementField, RequirementsSchema } from "../ports/payment-provider.ts"
import { isValidAbaRoutingNumber, isValidClabe, isValidIban } from "./bank-account-checksums.ts"

/**
 * The value at a dot path of an object, or undefined.
 *
 * @example
 * readPath({ bank_details: { account_number: "1" } }, "bank_details.account_number") // "1"
 */
export const readPath = (value: unknown, path: string): unknown =>
  path
    .split(".")
    .reduce<unknown>(
      (current, key) =>
        typeof current === "object" && current !== null && !Array.isArray(current)
          ? (current as Record<string, unknown>)[key]
          : undefined,
      value,
    )

const checksums: Record<Exclude<FieldRule["type"], "REGEX">, { check: (v: string) => boolean; message: string }> = {
  IBAN: { check: isValidIban, message: "is not a valid IBAN" },
  ABA_ROUTING_NUMBER: { check: isValidAbaRoutingNumber, message: "is not a valid ABA routing number" },
  CLABE: { check: isValidClabe, message: "is not a valid CLABE" },
}

const problemWith = (field: RequirementField, value: unknown): string | undefined => {
  if (value === undefined || value === null || value === "") return field.required ? "is required" : undefined
  if (field.field.type === "TRANSFER_METHOD" && Array.isArray(value)) {
    return problemWith(field, value[0])
  }
  if (typeof value !== "string") return "must be a string"
  const options = field.field.options
  if (options.length > 0 && !options.some((o) => o.value === value)) {
    return `must be one of: ${options.map((o) => o.value).join(", ")}`
  }
  const rule = field.rule
  if (rule === null) return undefined
  if (rule.minimum_length !== null && value.length < rule.minimum_length) {
    return `is too short (minimum is ${rule.minimum_length} characters)`
  }
  if (rule.maximum_length !== null && value.length > rule.maximum_length) {
    return `is too long (maximum is ${rule.maximum_length} characters)`
  }
  if (rule.pattern !== "" && !new RegExp(rule.pattern).test(value)) return "is invalid"
  if (rule.type !== "REGEX" && !checksums[rule.type].check(value)) return checksums[rule.type].message
  return undefined
}

/**
 * Checks `beneficiary_details` against every enabled field of the provider's requirements schema
 * and returns every failure at once, each on its dotted field (`beneficiary_details.<path>`):
 * missing required values, wrong types, values outside the options, lengths, patterns and the
 * checksums of IBANs, ABA routing numbers and CLABEs.
 *
 * @example
 * validateBeneficiaryDetails({ bank_details: {} }, schema)
 * // [{ field: "beneficiary_details.bank_details.account_number", message: "is required" }, ...]
 */
export const validateBeneficiaryDetails = (details: unknown, schema: RequirementsSchema): ReadonlyArray<FieldError> => {
  if (typeof details !== "object" || details === null || Array.isArray(details)) {
    return [{ field: "beneficiary_details", message: "must be an object" }]
  }
  return schema.fields.flatMap((field) => {
    if (!field.enabled) return []
    const message = problemWith(field, readPath(details, field.path))
    return message === undefined ? [] : [{ field: `beneficiary_details.${field.path}`, message }]
  })
}
