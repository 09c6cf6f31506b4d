/** The parts of a request that must match for a replay. */
export interface FingerprintedRequest {
  readonly method: string
  readonly path: string
  /** The parsed JSON body, or undefined for none. */
  readonly body: unknown
}

/**
 * JSON with object keys sorted at every depth (callers bound the depth: request bodies are
 * refused beyond 64 levels before they get here), so two bodies that differ only in key order or
 * white space are the same request.
 */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}

/** SHA-256 (hex) of method, path and canonical body. */
export const requestFingerprint = async (request: FingerprintedRequest): Promise<string> => {
  const text = `${request.method.toUpperCase()}\n${request.path}\n${request.body === undefined ? "" : canonicalJson(request.body)}`
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("")
}
