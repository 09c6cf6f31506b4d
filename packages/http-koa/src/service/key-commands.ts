import type { ApiKeyListing } from "@payments-engine/core"
import { longestRotationGraceSeconds } from "@payments-engine/core"
import ms from "ms"

/**
 * The seconds of a `--grace` duration (`30m`, `2h`, `7d`, `90s`, or `0`), or an Error saying what
 * is wrong with it. A number needs a unit, since `ms` would read `3600` as milliseconds.
 *
 * @example
 * parseGrace("2h") // 7200
 * parseGrace("3600") // Error
 */
export const parseGrace = (text: string): number | Error => {
  const trimmed = text.trim()
  const milliseconds =
    trimmed === "0" ? 0 : /^\d+(\.\d+)?\s*[a-z]+$/i.test(trimmed) ? ms(trimmed as ms.StringValue) : NaN
  const seconds = milliseconds / 1000
  if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds > longestRotationGraceSeconds) {
    return new Error(`--grace must be a duration such as 30m, 2h or 7d (whole seconds, 0 to 30d), got ${text}`)
  }
  return seconds
}

const stateOf = (key: ApiKeyListing): string => {
  if (key.revoked_at !== null) return `revoked ${key.revoked_at}`
  if (key.rotated_at !== null)
    return `rotated ${key.rotated_at}, previous secret until ${key.previous_secret_expires_at}`
  return "active"
}

/**
 * The keys as a table for a terminal, one a line under a header; "No API keys." when there are
 * none. Shows what an operator needs to pick a key, never a secret or its hash.
 *
 * @example
 * declare const io: CliIo
 * io.stdout(formatKeyListing(await engine.access.listApiKeys()))
 */
export const formatKeyListing = (keys: ReadonlyArray<ApiKeyListing>): string => {
  if (keys.length === 0) return "No API keys.\n"
  const rows = [
    ["KEY", "WORKSPACE", "SCOPE", "CREATED", "STATE"],
    ...keys.map((key) => [key.api_key, key.workspace, key.scope, key.created_at, stateOf(key)]),
  ]
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? []
  return rows
    .map((row) =>
      row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join("  "),
    )
    .join("\n")
    .concat("\n")
}
