import type { AppContext } from "../app-state.ts"
import { HttpError } from "../http-error.ts"
import { apiKeyOfCaller } from "./rate-limit.ts"

/** How many uploads may be in progress at once. */
export interface UploadLimits {
  /** Of one API key (`PAYMENTS_UPLOADS_PER_KEY`): past it, 429. */
  readonly perKey: number
  /** Of the whole process (`PAYMENTS_UPLOADS_PER_PROCESS`): past it, 503. */
  readonly perProcess: number
}

/** The limits when none are given: a key can hold 4 uploads open, a process 32. */
export const defaultUploadLimits: UploadLimits = { perKey: 4, perProcess: 32 }

/** The `Retry-After` of a refused upload: long enough for one in progress to end, in seconds. */
export const uploadRetryAfterSeconds = 5

/** The uploads in progress in this process, counted per API key and in all. */
export interface UploadSlots {
  /**
   * Takes a slot for the request's upload and answers the function that gives it back (once,
   * whatever the request's end). Throws 429 `base` when the caller's key holds `perKey`
   * already, 503 `base` when the process holds `perProcess`, both with `Retry-After`.
   */
  take(ctx: AppContext): () => void
}

/**
 * Counts uploads in progress in memory (they are this process's connections, so nothing is
 * shared between processes). A request without a key counts toward the process only.
 *
 * @example
 * declare const readTheUpload: () => Promise<void>
 * const slots = uploadSlots({ perKey: 4, perProcess: 32 })
 * const release = slots.take(ctx)
 * try { await readTheUpload() } finally { release() }
 */
export const uploadSlots = (limits: UploadLimits = defaultUploadLimits): UploadSlots => {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`uploadSlots: ${name} must be a whole number above 0, got ${value}`)
    }
  }
  const byKey = new Map<string, number>()
  let total = 0
  return {
    take: (ctx) => {
      const key = apiKeyOfCaller(ctx)
      const held = key === undefined ? 0 : (byKey.get(key) ?? 0)
      if (key !== undefined && held >= limits.perKey) {
        ctx.set("Retry-After", String(uploadRetryAfterSeconds))
        throw HttpError.of(429, "base", "Too many uploads in progress for this API key. Please try again later.")
      }
      if (total >= limits.perProcess) {
        ctx.set("Retry-After", String(uploadRetryAfterSeconds))
        throw HttpError.of(503, "base", "Too many uploads in progress. Please try again later.")
      }
      total += 1
      if (key !== undefined) byKey.set(key, held + 1)
      let released = false
      return () => {
        if (released) return
        released = true
        total -= 1
        if (key === undefined) return
        const left = (byKey.get(key) ?? 1) - 1
        if (left === 0) byKey.delete(key)
        else byKey.set(key, left)
      }
    },
  }
}
