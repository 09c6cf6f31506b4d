/**
 * Where the CPU goes, by layer: runs quote + payment pairs in-process, then GETs of one company
 * over HTTP (the app as `http-path.ts` serves it, client in this process), each under the V8
 * sampling profiler (`node:inspector`, in-process), and prints the share of samples per layer.
 * A sample goes to the nearest listed layer on its stack, from the running function up (so
 * `JSON.parse` called by the engine counts as the engine's; a frame of no listed layer, such as
 * xstate or this script, passes the sample on to its caller); samples with no listed layer on
 * their stack are "other", the collector's are "GC", idle ones are left out.
 *
 * It profiles what it imports: the build, as installed, unless run with `--conditions=source`.
 *
 *   npm run build                                   # once, after a change to the packages
 *   node --import tsx bench/profile-layers.ts       # 2,000 pairs and 2,000 GETs on a SQLite file
 *   PROFILE_PAIRS=5000 PROFILE_GETS=5000 node --import tsx bench/profile-layers.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/profile-layers.ts   # on Postgres
 *   PROFILE_OUT=/tmp/layers node --import tsx bench/profile-layers.ts   # also writes /tmp/layers-{pairs,gets}.cpuprofile
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { openSqliteStorage } from "@payments-engine/adapters"
import type { KyselyStorage } from "@payments-engine/adapters/kysely"
import { kyselyStorageOf } from "@payments-engine/adapters/kysely"
import { graphileWorkerSchema, openPostgresStorage } from "@payments-engine/adapters/postgres"
import { payInProcess, setUpPayer } from "@payments-engine/adapters/testing"
import { createServiceEngine } from "@payments-engine/http-koa"
import { Client, signIn, startApp } from "./http-path.ts"
import { loadNow } from "./in-turns.ts"

const pairs = Number(process.env.PROFILE_PAIRS ?? 2000)
const gets = Number(process.env.PROFILE_GETS ?? 2000)
/** Operations run before the profiler starts, so that the profile is of code the JIT has compiled. */
const warmUp = 300
/** µs between samples: fine enough for a few thousand operations of a few hundred µs each. */
const samplingMicros = 100

/** The layers, most specific first: a frame is of the first whose pattern its script's URL matches. */
const layers: ReadonlyArray<readonly [string, RegExp]> = [
  [
    "driver (better-sqlite3, pg)",
    /\/node_modules\/(better-sqlite3|pg|pg-pool|pg-protocol|pg-types|pg-connection-string)\//,
  ],
  ["Kysely", /\/node_modules\/kysely\//],
  ["Effect runtime", /\/node_modules\/(effect|@effect\/[^/]+)\//],
  ["engine core (services, rules, machines)", /\/packages\/core\//],
  ["adapters (storage, jobs)", /\/packages\/adapters\//],
  ["http-koa binding", /\/packages\/http-koa\//],
  ["koa, @koa/router", /\/node_modules\/(koa|koa-[^/]+|@koa\/[^/]+)\//],
  ["jose, node:crypto", /\/node_modules\/jose\/|^node:(crypto|internal\/crypto)/],
  [
    "pino",
    /\/node_modules\/(pino|pino-std-serializers|sonic-boom|fast-redact|thread-stream|quick-format-unescaped|safe-stable-stringify|atomic-sleep|on-exit-leak-free)\//,
  ],
  // Sockets and streams are no layer of their own: their time goes to the HTTP code or the driver that uses them.
  ["node:http", /^node:(_http_\w+|http$|internal\/http)/],
]
/**
 * better-sqlite3's statements run in C++ under the name of the method called, with no script:
 * without this, their time would go to the caller (Kysely), not the driver.
 */
const sqliteNatives = new Set(["run", "get", "all", "iterate", "exec", "prepare"])

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string }
  readonly children?: ReadonlyArray<number>
}

interface CpuProfile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
}

/**
 * Samples per layer (idle left out). Samples, not the time between them: on a loaded machine the
 * sampling thread is starved at times, and one sample after a gap would carry the whole gap.
 */
const byLayer = (profile: CpuProfile): Map<string, number> => {
  const parent = new Map<number, ProfileNode>()
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node)
  const layerOf = new Map<number, string | undefined>()
  const own = (node: ProfileNode): string | undefined => {
    const { functionName, url } = node.callFrame
    if (functionName === "(garbage collector)") return "GC"
    if (url === "" && sqliteNatives.has(functionName)) {
      const caller = parent.get(node.id)?.callFrame.url ?? ""
      if (/\/node_modules\/(kysely|better-sqlite3)\//.test(caller)) return layers[0]![0]
    }
    return layers.find(([, pattern]) => pattern.test(url))?.[0]
  }
  const nearest = (node: ProfileNode | undefined): string | undefined => {
    if (node === undefined) return undefined
    if (layerOf.has(node.id)) return layerOf.get(node.id)
    const layer = own(node) ?? nearest(parent.get(node.id))
    layerOf.set(node.id, layer)
    return layer
  }
  const samples = new Map<string, number>()
  for (const id of profile.samples) {
    const node = nodes.get(id)!
    if (node.callFrame.functionName === "(idle)") continue
    const layer = nearest(node) ?? "other"
    samples.set(layer, (samples.get(layer) ?? 0) + 1)
  }
  return samples
}

const session = new Session()
session.connect()
await session.post("Profiler.enable")
await session.post("Profiler.setSamplingInterval", { interval: samplingMicros })

/** Runs `work` under the profiler; the profile, written to PROFILE_OUT-`name`.cpuprofile when asked. */
const profiled = async (name: string, work: () => Promise<void>): Promise<CpuProfile> => {
  await session.post("Profiler.start")
  await work()
  const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: CpuProfile }
  if (process.env.PROFILE_OUT) writeFileSync(`${process.env.PROFILE_OUT}-${name}.cpuprofile`, JSON.stringify(profile))
  return profile
}

const profileOn = async (storage: KyselyStorage) => {
  const engine = createServiceEngine({
    storage,
    serverSecret: { read: async () => "profile-server-secret-0123456789abcdef" },
  })
  const payer = await setUpPayer(engine, "profile")
  for (let i = 0; i < warmUp; i++) await payInProcess(engine, payer, -1 - i)
  const pairProfile = await profiled("pairs", async () => {
    for (let i = 0; i < pairs; i++) await payInProcess(engine, payer, i)
  })
  const server = await startApp(engine)
  const client = new Client(server.port, await signIn(engine, server.port, "profile"))
  try {
    const path = `/api/v1/companies/${payer.companyId}`
    for (let i = 0; i < warmUp; i++) await client.expect(200, "GET", path)
    const getProfile = await profiled("gets", async () => {
      for (let i = 0; i < gets; i++) await client.expect(200, "GET", path)
    })
    return { pairs: byLayer(pairProfile), gets: byLayer(getProfile) }
  } finally {
    client.close()
    await server.close()
  }
}

const startLoad = loadNow()
const url = process.env.DATABASE_URL
const onPostgres = url?.startsWith("postgres") === true
let shares: Awaited<ReturnType<typeof profileOn>>
if (onPostgres) {
  const schema = `pe_profile_${process.pid}`
  const storage = await openPostgresStorage({ connectionString: url!, schema })
  try {
    shares = await profileOn(storage)
  } finally {
    for (const each of [schema, graphileWorkerSchema(schema)])
      await storage.db.schema.dropSchema(each).ifExists().cascade().execute()
    await storage.close()
  }
} else {
  const folder = mkdtempSync(join(tmpdir(), "pe-profile-"))
  const storage = kyselyStorageOf(await openSqliteStorage({ filename: join(folder, "profile.sqlite") }))
  try {
    shares = await profileOn(storage)
  } finally {
    await storage.close()
    rmSync(folder, { recursive: true, force: true })
  }
}
session.disconnect()

const names = [...layers.map(([name]) => name), "GC", "other"]
const column = (samples: Map<string, number>) => {
  const total = [...samples.values()].reduce((a, b) => a + b, 0)
  return (name: string) => {
    const count = samples.get(name) ?? 0
    return `${((100 * count) / total).toFixed(1).padStart(5)} % ${String(count).padStart(7)}`
  }
}
const pairColumn = column(shares.pairs)
const getColumn = column(shares.gets)
const code = import.meta.resolve("@payments-engine/core").includes("/src/") ? "the sources" : "the build"
console.log(
  `Profile by layer, ${onPostgres ? "Postgres" : "SQLite file"}, ${code}, sampled every ${samplingMicros} µs; load average (1 min) ${startLoad.toFixed(2)} at the start, ${loadNow().toFixed(2)} at the end.`,
)
console.log("Share of the non-idle samples, and their count.")
console.log("")
console.log(`${"Layer".padEnd(42)}${`${pairs} pairs in-process`.padEnd(24)}${gets} GETs over HTTP`)
for (const name of names) console.log(`${name.padEnd(42)}${pairColumn(name).padEnd(24)}${getColumn(name)}`)
