import { Either } from "effect"
import { Invalid } from "../errors.ts"
import type { Page, PagePolicy, PageQuery, PageRequest } from "../model/types/page.ts"

export type * from "../model/types/page.ts"

const positiveInteger = (value: unknown): number | undefined => {
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 1 ? value : undefined
  if (typeof value !== "string" || !/^\d{1,15}$/.test(value)) return undefined
  const n = Number(value)
  return n >= 1 ? n : undefined
}

/**
 * Validates `page` and `per_page`: absent means the defaults; a non-integer or a value below 1
 * is `missing` on that field; `per_page` above the policy's maximum is clamped to it.
 *
 * @example
 * parsePageRequest({ page: "2", per_page: "500" }, { defaultPerPage: 20, maxPerPage: 100 })
 * // Right({ page: 2, perPage: 100 })
 */
export const parsePageRequest = (query: PageQuery, policy: PagePolicy): Either.Either<PageRequest, Invalid> => {
  const errors: Array<{ field: string; message: string }> = []
  let page = 1
  let perPage = policy.defaultPerPage
  if (query.page !== undefined) {
    const n = positiveInteger(query.page)
    if (n === undefined) errors.push({ field: "page", message: "must be an integer greater than or equal to 1" })
    else page = n
  }
  if (query.per_page !== undefined) {
    const n = positiveInteger(query.per_page)
    if (n === undefined) errors.push({ field: "per_page", message: "must be an integer greater than or equal to 1" })
    else perPage = Math.min(n, policy.maxPerPage)
  }
  return errors.length > 0 ? Either.left(new Invalid({ kind: "missing", errors })) : Either.right({ page, perPage })
}

/** Rows to skip for a page request. */
export const pageOffset = (request: PageRequest): number =>
  Math.min((request.page - 1) * request.perPage, Number.MAX_SAFE_INTEGER)

/**
 * Builds a page from the rows of the requested slice and the total count. A list never has
 * fewer than one page, so `last` is always a page a client can ask for.
 */
export const toPage = <T>(rows: ReadonlyArray<T>, totalRecords: number, request: PageRequest): Page<T> => {
  const totalPages = Math.max(1, Math.ceil(totalRecords / request.perPage))
  const current = request.page
  return {
    data: rows,
    meta: { total_records: totalRecords, total_pages: totalPages, current_page: current, per_page: request.perPage },
    pages: {
      first: 1,
      prev: current > 1 ? Math.min(current - 1, totalPages) : null,
      next: current < totalPages ? current + 1 : null,
      last: totalPages,
    },
  }
}

/** Page sizes of the spec's lists. */
export const pagePolicies = {
  companies: { defaultPerPage: 20, maxPerPage: 100 },
  entities: { defaultPerPage: 20, maxPerPage: 100 },
  recipients: { defaultPerPage: 100, maxPerPage: 100 },
  payments: { defaultPerPage: 25, maxPerPage: 100 },
  bankAccounts: { defaultPerPage: 25, maxPerPage: 100 },
  paymentBatches: { defaultPerPage: 20, maxPerPage: 100 },
  webhookEndpoints: { defaultPerPage: 25, maxPerPage: 100 },
  webhookDeliveries: { defaultPerPage: 25, maxPerPage: 100 },
  onboardingPersons: { defaultPerPage: 25, maxPerPage: 100 },
  onboardingAttachments: { defaultPerPage: 25, maxPerPage: 100 },
  events: { defaultPerPage: 25, maxPerPage: 100 },
} as const satisfies Record<string, PagePolicy>
