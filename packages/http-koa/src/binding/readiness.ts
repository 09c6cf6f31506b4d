/** The checks `GET /ready` reports, each `pass` or `fail`. */
export type ReadinessCheckName = "database" | "migrations" | "job_runner" | "shutdown"

/**
 * What `GET /ready` answers: `ready` (200) when every check passes, `not_ready` (503) otherwise,
 * with the failing checks' names in `failed`. Only these names and words: no error text, no
 * database location, nothing an unauthenticated caller should not read.
 */
export interface ReadinessReport {
  readonly status: "ready" | "not_ready"
  readonly checks: Readonly<Partial<Record<ReadinessCheckName, "pass" | "fail">>>
  readonly failed: ReadonlyArray<ReadinessCheckName>
}

/** Builds the report from each check's outcome. */
export const readinessReport = (checks: Readonly<Partial<Record<ReadinessCheckName, boolean>>>): ReadinessReport => {
  const entries = Object.entries(checks) as Array<[ReadinessCheckName, boolean]>
  const failed = entries.filter(([, passed]) => !passed).map(([name]) => name)
  return {
    status: failed.length === 0 ? "ready" : "not_ready",
    checks: Object.fromEntries(entries.map(([name, passed]) => [name, passed ? "pass" : "fail"])),
    failed,
  }
}
