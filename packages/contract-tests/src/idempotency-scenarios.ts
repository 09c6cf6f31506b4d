import {
  createEngine,
  erasedFingerprint,
  idempotencyLockMs,
  idempotencyRetentionMs,
  messages,
} from "@payments-engine/core"
import { expect } from "vitest"
import { expectRefusal } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import { counterIds, plainHasher } from "./test-ports.ts"

const field = "Idempotency-Key"
const path = "/api/v1/companies"
const request = { method: "POST", path, body: { name: "Acme Inc", country: "US", default_currency: "USD" } }
/** The same request with its keys in another order: the same request for a replay. */
const reordered = { method: "post", path, body: { default_currency: "USD", country: "US", name: "Acme Inc" } }
const created = { status: 201, body: { data: { id: "cmp_1", name: "Acme Inc" } } }
const proceed = { kind: "proceed" } as const
const replay = (response: { status: number; body: unknown }) => ({ kind: "replay", response })

/** Idempotency records: claim, replay, misuse, expiry and crashed first requests. */
export const idempotencyScenarios: ScenarioGroup = {
  title: "idempotency",
  scenarios: [
    {
      id: "idempotency.replay",
      title: "a completed key replays the first response for the same request",
      run: async ({ engine, storage, workspace }) => {
        const actor = await workspace()
        expect(await engine.idempotency.begin(actor, "key-1", request)).toEqual(proceed)
        await engine.idempotency.complete(actor, "key-1", created)
        expect(await engine.idempotency.begin(actor, "key-1", reordered)).toEqual(replay(created))
        expect(await engine.idempotency.begin(actor, "key-1", request)).toEqual(replay(created))
        const row = await storage.transaction((tx) => tx.idempotency.find(actor.workspaceId, "key-1"))
        expect(row).toMatchObject({
          workspace_id: actor.workspaceId,
          key: "key-1",
          response_status: 201,
          locked_until: null,
        })
      },
    },
    {
      id: "idempotency.mismatch",
      title: "a key reused with another method, path or body is refused (invalid)",
      run: async ({ engine, workspace }) => {
        const actor = await workspace()
        await engine.idempotency.begin(actor, "key-1", request)
        const mismatch = (other: typeof request) =>
          expectRefusal(engine.idempotency.begin(actor, "key-1", other), "invalid", field, messages.idempotencyMismatch)
        await mismatch({ ...request, body: { ...request.body, name: "Acme Europe" } })
        await engine.idempotency.complete(actor, "key-1", created)
        await mismatch({ ...request, body: { ...request.body, name: "Acme Europe" } })
        await mismatch({ ...request, path: "/api/v1/companies/cmp_1/recipients" })
        await mismatch({ ...request, method: "PATCH" })
        expect(await engine.idempotency.begin(actor, "key-1", request)).toEqual(replay(created))
      },
    },
    {
      id: "idempotency.keyed-fingerprint",
      title:
        "fingerprints are keyed by the server secret; one that cannot be compared (erased, or another secret's) replays",
      run: async ({ engine, storage, workspace, clock, paymentProvider, bankLinker }) => {
        const actor = await workspace()
        const other = { ...request, body: { ...request.body, name: "Acme Europe" } }
        await engine.idempotency.begin(actor, "key-1", request)
        await engine.idempotency.complete(actor, "key-1", created)
        const row = await storage.transaction((tx) => tx.idempotency.find(actor.workspaceId, "key-1"))
        expect(row?.fingerprint).toMatch(/^hmac-sha256:[0-9a-f]{8}:[0-9a-f]{64}$/)
        // The secret was rotated within the record's 24 hours: a retry replays rather than being refused.
        const rotated = createEngine({
          storage,
          clock,
          ids: counterIds(),
          hasher: plainHasher,
          serverSecret: { read: async () => "a-rotated-server-secret-0123456789abcdef" },
          paymentProvider,
          bankLinker,
        })
        expect(await rotated.idempotency.begin(actor, "key-1", other)).toEqual(replay(created))
        await expectRefusal(
          engine.idempotency.begin(actor, "key-1", other),
          "invalid",
          field,
          messages.idempotencyMismatch,
        )
        // Erased by the storage migration that keyed fingerprints: replays for any request.
        await storage.transaction((tx) => tx.idempotency.replace({ ...row!, fingerprint: erasedFingerprint }))
        expect(await engine.idempotency.begin(actor, "key-1", other)).toEqual(replay(created))
        expect(await engine.idempotency.begin(actor, "key-1", request)).toEqual(replay(created))
      },
    },
    {
      id: "idempotency.in-flight",
      title: "a key whose first request still runs is a conflict until it completes",
      run: async ({ engine, workspace, clock }) => {
        const actor = await workspace()
        await engine.idempotency.begin(actor, "key-1", request)
        const inFlight = () =>
          expectRefusal(
            engine.idempotency.begin(actor, "key-1", request),
            "conflict",
            field,
            messages.idempotencyInFlight,
          )
        await inFlight()
        clock.advance(idempotencyLockMs / 2)
        await inFlight()
        await engine.idempotency.complete(actor, "key-1", created)
        expect(await engine.idempotency.begin(actor, "key-1", request)).toEqual(replay(created))
      },
    },
    {
      id: "idempotency.expiry",
      title: "a key is kept 24 hours, then another request may use it; expired records are purged",
      run: async ({ engine, jobHandlers, storage, workspace, clock }) => {
        const actor = await workspace()
        await engine.idempotency.begin(actor, "key-1", request)
        await engine.idempotency.complete(actor, "key-1", created)
        clock.advance(idempotencyRetentionMs - 1)
        await jobHandlers.run("purge_idempotency", {})
        // Not yet expired: the purge kept it and it still replays.
        expect(await engine.idempotency.begin(actor, "key-1", request)).toEqual(replay(created))
        clock.advance(1)
        const later = { ...request, body: { ...request.body, name: "Acme Later" } }
        expect(await engine.idempotency.begin(actor, "key-1", later)).toEqual(proceed)
        const updated = { status: 201, body: { data: { id: "cmp_2", name: "Acme Later" } } }
        await engine.idempotency.complete(actor, "key-1", updated)
        expect(await engine.idempotency.begin(actor, "key-1", later)).toEqual(replay(updated))
        clock.advance(idempotencyRetentionMs)
        await jobHandlers.run("purge_idempotency", {})
        expect(await storage.transaction((tx) => tx.idempotency.find(actor.workspaceId, "key-1"))).toBeUndefined()
        expect(await engine.idempotency.begin(actor, "key-1", request)).toEqual(proceed)
      },
    },
    {
      id: "idempotency.abandoned-lock",
      title: "a first request that has not finished after 60 s is presumed crashed and its key taken over",
      run: async ({ engine, workspace, clock }) => {
        const actor = await workspace()
        await engine.idempotency.begin(actor, "key-1", request)
        clock.advance(idempotencyLockMs - 1000)
        const inFlight = () =>
          expectRefusal(
            engine.idempotency.begin(actor, "key-1", request),
            "conflict",
            field,
            messages.idempotencyInFlight,
          )
        await inFlight()
        clock.advance(1000)
        expect(await engine.idempotency.begin(actor, "key-1", request)).toEqual(proceed)
        await inFlight()
        await engine.idempotency.complete(actor, "key-1", created)
        expect(await engine.idempotency.begin(actor, "key-1", request)).toEqual(replay(created))
      },
    },
    {
      id: "idempotency.abandon-and-scope",
      title: "an abandoned key may be used again, and keys are scoped to their workspace",
      run: async ({ engine, workspace }) => {
        const actor = await workspace()
        const other = await workspace()
        await engine.idempotency.begin(actor, "key-1", request)
        expect(await engine.idempotency.begin(other, "key-1", request)).toEqual(proceed)
        await engine.idempotency.abandon(actor, "key-1")
        expect(await engine.idempotency.begin(actor, "key-1", request)).toEqual(proceed)
        const theirs: { status: number; body: unknown } = {
          status: 422,
          body: { errors: [{ field: "name", message: "can't be blank" }] },
        }
        await engine.idempotency.complete(actor, "key-1", created)
        await engine.idempotency.complete(other, "key-1", theirs)
        expect(await engine.idempotency.begin(actor, "key-1", request)).toEqual(replay(created))
        expect(await engine.idempotency.begin(other, "key-1", request)).toEqual(replay(theirs))
      },
    },
    {
      id: "idempotency.journal",
      title: "a keyed request's transactions are journaled with the key and replayed, not run again, by a retry",
      run: async ({ engine, storage, workspace, clock }) => {
        const actor = await workspace()
        const keyed = { ...actor, idempotencyKey: "key-1" }
        expect(await engine.idempotency.begin(actor, "key-1", request)).toEqual(proceed)
        const first = await engine.companies.create(keyed, request.body)
        const record = await storage.transaction((tx) => tx.idempotency.find(actor.workspaceId, "key-1"))
        expect(record?.journal).toEqual(expect.any(String))
        // The answer was never kept (the process died). Once the lock runs out, a retry replays the create.
        clock.advance(idempotencyLockMs)
        expect(await engine.idempotency.begin(actor, "key-1", request)).toEqual(proceed)
        expect(await engine.companies.create(keyed, request.body)).toEqual(first)
        expect((await engine.companies.list(actor)).data).toEqual([first])
        await engine.idempotency.complete(actor, "key-1", { status: 201, body: { data: first } })
        const completed = await storage.transaction((tx) => tx.idempotency.find(actor.workspaceId, "key-1"))
        expect(completed).toMatchObject({ response_status: 201, owner: null, journal: null, locked_until: null })
        // Use cases of one keyed request started together each run their own work, one at a time.
        expect(await engine.idempotency.begin(actor, "key-3", request)).toEqual(proceed)
        const together = { ...actor, idempotencyKey: "key-3" }
        const [north, south] = await Promise.all(
          ["North", "South"].map((name) => engine.companies.create(together, { ...request.body, name })),
        )
        expect([north?.name, south?.name]).toEqual(["North", "South"])
        expect((await engine.companies.list(actor)).data).toHaveLength(3)
        // Abandoned (the request failed) after its work committed, a key is released with its journal: a retry
        // takes it over at once and replays the work.
        expect(await engine.idempotency.begin(actor, "key-4", request)).toEqual(proceed)
        const failing = { ...actor, idempotencyKey: "key-4" }
        const kept = await engine.companies.create(failing, { ...request.body, name: "Kept" })
        await engine.idempotency.abandon(actor, "key-4")
        expect(await engine.idempotency.begin(actor, "key-4", request)).toEqual(proceed)
        expect(await engine.companies.create(failing, { ...request.body, name: "Kept" })).toEqual(kept)
        expect((await engine.companies.list(actor)).data).toHaveLength(4)
        // A key this engine never claimed cannot be named: the work would run unguarded.
        await expect(engine.companies.create({ ...actor, idempotencyKey: "key-2" }, request.body)).rejects.toThrow(
          /not claimed/,
        )
      },
    },
    {
      id: "idempotency.owner-compare-and-set",
      title: "replaceIfOwner writes only while the record's owner is the one expected, and says so",
      run: async ({ storage, workspace, clock }) => {
        const actor = await workspace()
        const at = clock.now().toISOString()
        const row = {
          workspace_id: actor.workspaceId,
          key: "cas",
          fingerprint: "f",
          response_status: null,
          response_body: null,
          created_at: at,
          expires_at: at,
          locked_until: at,
          owner: "process-a",
          journal: null,
        }
        const find = () => storage.transaction((tx) => tx.idempotency.find(actor.workspaceId, "cas"))
        await storage.transaction((tx) => tx.idempotency.claim(row))
        const journal = JSON.stringify(["x".repeat(20_000)])
        const taken = { ...row, owner: "process-b", journal }
        expect(await storage.transaction((tx) => tx.idempotency.replaceIfOwner(taken, "process-c"))).toBe(false)
        expect(await storage.transaction((tx) => tx.idempotency.replaceIfOwner(taken, null))).toBe(false)
        expect(await find()).toEqual(row)
        expect(await storage.transaction((tx) => tx.idempotency.replaceIfOwner(taken, "process-a"))).toBe(true)
        expect(await find()).toEqual(taken)
        const released = { ...taken, owner: null, locked_until: null }
        expect(await storage.transaction((tx) => tx.idempotency.replaceIfOwner(released, "process-b"))).toBe(true)
        expect(await storage.transaction((tx) => tx.idempotency.replaceIfOwner(row, null))).toBe(true)
        expect(await find()).toEqual(row)
        // Two takeovers racing for one claim: one wins.
        const outcomes = await Promise.all(
          ["process-d", "process-e"].map((owner) =>
            storage.transaction((tx) => tx.idempotency.replaceIfOwner({ ...row, owner }, "process-a")),
          ),
        )
        expect(outcomes.filter(Boolean)).toHaveLength(1)
      },
    },
    {
      id: "idempotency.dead-owner",
      title: "a claim whose process the storage reports dead is taken over at once; a running one's is a conflict",
      run: async ({ engine, storage, workspace }) => {
        const actor = await workspace()
        const inFlight = () =>
          expectRefusal(
            engine.idempotency.begin(actor, "key-1", request),
            "conflict",
            field,
            messages.idempotencyInFlight,
          )
        expect(await engine.idempotency.begin(actor, "key-1", request)).toEqual(proceed)
        await inFlight()
        // A claim made before claims named their process keeps its lock.
        const mine = await storage.transaction((tx) => tx.idempotency.find(actor.workspaceId, "key-1"))
        await storage.transaction((tx) => tx.idempotency.replaceIfOwner({ ...mine!, owner: null }, mine!.owner))
        await inFlight()
        await storage.transaction((tx) => tx.idempotency.replaceIfOwner(mine!, null))
        const processes = storage.processes
        // Without liveness a claim waits out its lock (idempotency.abandoned-lock).
        if (processes === undefined) return
        const self = await processes.self()
        expect(await processes.isRunning(self)).toBe(true)
        expect(await processes.isRunning("a-process-that-never-ran")).toBe(false)
        const claimed = await storage.transaction((tx) => tx.idempotency.find(actor.workspaceId, "key-1"))
        expect(claimed?.owner).toBe(self)
        await storage.transaction((tx) =>
          tx.idempotency.replaceIfOwner({ ...claimed!, owner: "a-process-that-never-ran" }, self),
        )
        expect(await engine.idempotency.begin(actor, "key-1", request)).toEqual(proceed)
        await inFlight()
      },
    },
  ],
}
