import { randomBytes } from "node:crypto"
import type { RateLimitStore } from "@payments-engine/core"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { memoryRateLimitStore } from "./memory-rate-limit-store.ts"
import { openPostgresRateLimitStore } from "./postgres-rate-limit-store.ts"

/*
 * Both stores keep the RateLimitStore port's promises: what the HTTP binding's X-RateLimit-*
 * headers and 429s are made of. Postgres runs only with DATABASE_URL (RateLimiterPostgres needs a
 * pg pool, which PGlite is not), on a schema of this file's own, dropped after.
 */

const databaseUrl = process.env.DATABASE_URL
const schema = `rate_limit_store_${randomBytes(4).toString("hex")}`
const stores = new Set<RateLimitStore>()

afterAll(async () => {
  for (const store of stores) await store.close()
  if (databaseUrl === undefined) return
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query(`drop schema if exists "${schema}" cascade`)
  } finally {
    await client.end()
  }
})

const opened = (store: RateLimitStore) => {
  stores.add(store)
  return store
}

const kinds: Array<[string, () => Promise<RateLimitStore>]> = [["memory", async () => opened(memoryRateLimitStore())]]
if (databaseUrl !== undefined) {
  kinds.push([
    "postgres",
    async () => opened(await openPostgresRateLimitStore({ connectionString: databaseUrl, schema })),
  ])
}

describe.each(kinds)("%s rate-limit store", (_kind, open) => {
  /** A limit of its own per test, so tests on one shared table never meet. */
  const window = (points: number) => ({ name: `l${randomBytes(4).toString("hex")}`, points, windowSeconds: 60 })

  it("allows a key its points in a window, then refuses it until the window ends", async () => {
    const counter = (await open()).counter(window(2))
    const counts = [await counter.consume("k"), await counter.consume("k"), await counter.consume("k")]
    expect(counts.map(({ allowed, remaining }) => ({ allowed, remaining }))).toEqual([
      { allowed: true, remaining: 1 },
      { allowed: true, remaining: 0 },
      { allowed: false, remaining: 0 },
    ])
    const refused = counts[2]?.msBeforeReset ?? 0
    expect(refused).toBeGreaterThan(50_000)
    expect(refused).toBeLessThanOrEqual(60_000)
  })

  it("counts each key and each limit apart", async () => {
    const store = await open()
    const limit = window(1)
    await store.counter(limit).consume("k")
    expect((await store.counter(limit).consume("other")).allowed).toBe(true)
    expect((await store.counter({ ...limit, name: `${limit.name}x` }).consume("k")).allowed).toBe(true)
  })

  it("takes back a request given back, and forgets a key", async () => {
    const counter = (await open()).counter(window(2))
    await counter.consume("k")
    await counter.consume("k")
    await counter.giveBack("k")
    expect(await counter.consume("k")).toMatchObject({ allowed: true, remaining: 0 })
    await counter.forget("k")
    expect(await counter.consume("k")).toMatchObject({ allowed: true, remaining: 1 })
  })
})
