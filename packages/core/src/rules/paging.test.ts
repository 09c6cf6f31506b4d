import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { pageOffset, parsePageRequest, toPage } from "./paging.ts"

const policy = { defaultPerPage: 20, maxPerPage: 100 }

describe("parsePageRequest", () => {
  it("uses the defaults when nothing is given", () => {
    expect(parsePageRequest({}, policy)).toEqual(Either.right({ page: 1, perPage: 20 }))
  })

  it("clamps per_page to the maximum", () => {
    fc.assert(
      fc.property(fc.integer({ min: 101, max: 10 ** 12 }), (n) => {
        expect(parsePageRequest({ per_page: String(n) }, policy)).toEqual(Either.right({ page: 1, perPage: 100 }))
      }),
    )
  })

  it("accepts every whole number from 1 as text or number", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 9 }), fc.boolean(), (n, asText) => {
        const result = parsePageRequest({ page: asText ? String(n) : n }, policy)
        expect(result).toEqual(Either.right({ page: n, perPage: 20 }))
      }),
    )
  })

  it("refuses anything else as `missing` on the field", () => {
    const notPositiveInteger = fc.oneof(
      fc.constantFrom("0", "-1", "1.5", "abc", "", " 2", "1e3", "0x10", "NaN", "Infinity"),
      fc.integer({ max: 0 }),
      fc.double().filter((d) => !Number.isInteger(d)),
      fc.array(fc.string()),
      fc.constant(null),
    )
    fc.assert(
      fc.property(notPositiveInteger, fc.constantFrom("page", "per_page"), (value, field) => {
        const result = parsePageRequest({ [field]: value }, policy)
        expect(Either.isLeft(result)).toBe(true)
        if (Either.isLeft(result)) {
          expect(result.left.kind).toBe("missing")
          expect(result.left.errors.map((e) => e.field)).toEqual([field])
        }
      }),
    )
  })
})

describe("toPage", () => {
  it("agrees with slicing the whole list", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 300 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 20 }),
        (total, page, perPage) => {
          const all = Array.from({ length: total }, (_, i) => i)
          const request = { page, perPage }
          const rows = all.slice(pageOffset(request), pageOffset(request) + perPage)
          const result = toPage(rows, total, request)
          const lastPage = Math.max(1, Math.ceil(total / perPage))
          expect(result.meta).toEqual({
            total_records: total,
            total_pages: lastPage,
            current_page: page,
            per_page: perPage,
          })
          expect(result.pages.first).toBe(1)
          expect(result.pages.last).toBe(lastPage)
          expect(result.pages.next).toBe(page < lastPage ? page + 1 : null)
          expect(result.pages.prev === null).toBe(page === 1)
          if (result.pages.prev !== null) expect(result.pages.prev).toBeLessThanOrEqual(lastPage)
          expect(rows.length === 0).toBe(page > lastPage || total === 0)
        },
      ),
    )
  })

  it("keeps offsets exact integers even for absurd pages", () => {
    expect(pageOffset({ page: 10 ** 15, perPage: 100 })).toBe(Number.MAX_SAFE_INTEGER)
    expect(Number.isSafeInteger(pageOffset({ page: 10 ** 15, perPage: 100 }))).toBe(true)
  })
})
