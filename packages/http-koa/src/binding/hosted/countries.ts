import { countryAlpha2Codes } from "@payments-engine/core"
import type { Choice } from "./views/frame.ts"

/**
 * Countries as the pages offer them: by their English name, sorted by it, each answering its
 * ISO 3166-1 alpha-2 code, so a person picks "Germany" and the engine gets "DE".
 */

const names = new Intl.DisplayNames(["en"], { type: "region" })

/** The English name of a country code, else the code itself. */
export const countryName = (code: string): string => {
  try {
    return names.of(code) ?? code
  } catch {
    // Not a region code at all ("1", "zz9"): shown as typed.
    return code
  }
}

/** `codes` as choices by name, sorted by name. */
export const countryChoices = (codes: ReadonlyArray<string>): ReadonlyArray<Choice> =>
  codes.map((code) => ({ value: code, label: countryName(code) })).sort((a, b) => a.label.localeCompare(b.label, "en"))

/** Every country the engine knows (an address or a nationality can be anywhere); built once. */
export const everyCountry: ReadonlyArray<Choice> = countryChoices(countryAlpha2Codes())
