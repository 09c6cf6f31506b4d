import { type Actor, type Engine, type ErrorKind, isDomainError, messages } from "@payments-engine/core"
import { expect } from "vitest"
import type { ScenarioGroup } from "./contract-scenario.ts"

/** How racing calls ended, as an adopter reads them: values, and the domain errors of the losers. */
const settle = async <T>(calls: ReadonlyArray<Promise<T>>) => {
  const outcomes = await Promise.allSettled(calls)
  const won: Array<T> = []
  const lost: Array<{ kind: ErrorKind; errors: ReadonlyArray<{ field: string; message: string }> }> = []
  for (const outcome of outcomes) {
    if (outcome.status === "fulfilled") won.push(outcome.value)
    else if (isDomainError(outcome.reason)) lost.push({ kind: outcome.reason.kind, errors: outcome.reason.errors })
    else throw outcome.reason
  }
  return { won, lost }
}

const companiesRacing = 4

/** Two entity creates for each of a few companies, all at once: one per company wins. */
const raceEntities = async (engines: ReadonlyArray<Engine>, actor: Actor) => {
  const [first] = engines
  if (first === undefined) throw new Error("no engine")
  const companies = []
  for (let n = 0; n < companiesRacing; n += 1) {
    companies.push(await first.companies.create(actor, { name: `Race ${n}`, country: "US", default_currency: "USD" }))
  }
  const races = companies.map((company) =>
    settle(
      ["Left Ltd", "Right Ltd"].map((name, i) =>
        (engines[i % engines.length] ?? first).entities.create(actor, company.id, { name, country_alpha2: "US" }),
      ),
    ),
  )
  const results = await Promise.all(races)
  for (const [i, { won, lost }] of results.entries()) {
    const company = companies[i]!
    expect(won).toHaveLength(1)
    expect(lost).toEqual([{ kind: "invalid", errors: [{ field: "base", message: messages.companyHasEntity }] }])
    for (const engine of engines) expect((await engine.entities.list(actor, company.id)).data).toEqual(won)
  }
}

const request = { method: "POST", path: "/api/v1/companies", body: { name: "Acme Inc" } }
const inFlight = { kind: "conflict", errors: [{ field: "Idempotency-Key", message: messages.idempotencyInFlight }] }

/**
 * Three claims of each of eight keys, all at once: one per key proceeds, the others are told of a conflict.
 * Many keys at once, because the engine hashes each request before its transaction starts, which
 * spreads a handful of racers out in time.
 */
const raceClaims = async (engines: ReadonlyArray<Engine>, actor: Actor) => {
  const keys = Array.from({ length: 8 }, (_, i) => `race-${i}`)
  const results = await Promise.all(
    keys.map((key) =>
      settle([0, 1, 2].map((i) => (engines[i % engines.length] ?? engines[0]!).idempotency.begin(actor, key, request))),
    ),
  )
  for (const { won, lost } of results) {
    expect(won).toEqual([{ kind: "proceed" }])
    expect(lost).toEqual([inFlight, inFlight])
  }
}

/** Races that a storage must decide by itself: unique inserts and inserts-or-gets. */
export const concurrencyScenarios: ScenarioGroup = {
  title: "concurrency",
  scenarios: [
    {
      id: "concurrency.one-entity-per-company",
      title: "of two concurrent entity creates for one company exactly one succeeds, the other is refused as invalid",
      run: async ({ engine, workspace }) => raceEntities([engine], await workspace()),
    },
    {
      id: "concurrency.idempotency-claim",
      title: "of concurrent requests with one idempotency key exactly one proceeds, the others get a conflict",
      run: async ({ engine, storage, workspace, clock }) => {
        const actor = await workspace()
        await raceClaims([engine], actor)
        // The same race on the port, with every claim started in the same tick.
        const at = clock.now().toISOString()
        const claims = await Promise.all(
          ["a", "b", "c", "d"].map((fingerprint) =>
            storage.transaction((tx) =>
              tx.idempotency.claim({
                workspace_id: actor.workspaceId,
                key: "port-race",
                fingerprint,
                response_status: null,
                response_body: null,
                created_at: at,
                expires_at: at,
                locked_until: at,
                owner: null,
                journal: null,
              }),
            ),
          ),
        )
        const winners = claims.flatMap((claim, i) => (claim.claimed ? [["a", "b", "c", "d"][i]] : []))
        expect(winners).toHaveLength(1)
        for (const claim of claims) {
          if (!claim.claimed) expect(claim.existing.fingerprint).toBe(winners[0])
        }
      },
    },
    {
      id: "concurrency.insert-or-get",
      title: "concurrent creates of one workspace or setting store one and all callers get it",
      run: async ({ engine, uniqueName }) => {
        const name = uniqueName("ws")
        const workspaces = await Promise.all([1, 2, 3, 4].map(() => engine.access.ensureWorkspace(name)))
        expect(new Set(workspaces.map((w) => w.id)).size).toBe(1)
        const keyed = uniqueName("ws")
        const keys = await Promise.all([1, 2, 3].map(() => engine.access.createApiKey({ workspace: keyed })))
        expect(new Set(keys.map((k) => k.workspace_id)).size).toBe(1)
        const setting = uniqueName("setting")
        const values = await Promise.all(["a", "b", "c", "d"].map((v) => engine.access.settingOrInit(setting, () => v)))
        expect(new Set(values).size).toBe(1)
      },
    },
    {
      id: "concurrency.two-engines",
      title: "two engines sharing the storage, as two processes would, see each other's writes and races",
      requires: { capability: "multiProcess", because: "only a multi-process storage is shared by two engines" },
      run: async ({ engine, secondEngine, workspace }) => {
        const actor = await workspace()
        const other = secondEngine()
        const company = await engine.companies.create(actor, { name: "Shared", country: "US", default_currency: "USD" })
        expect(await other.companies.get(actor, company.id)).toEqual(company)
        await raceEntities([engine, other], actor)
        await raceClaims([engine, other], actor)
      },
    },
  ],
}
