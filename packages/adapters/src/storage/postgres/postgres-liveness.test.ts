import { spawn } from "node:child_process"
import { once } from "node:events"
import { createInterface } from "node:readline"
import { setTimeout as delay } from "node:timers/promises"
import { describe, expect, it } from "vitest"
import { postgresLiveness } from "./postgres-liveness.ts"

const databaseUrl = process.env.DATABASE_URL
const holder = new URL("./test-support/liveness-holder.ts", import.meta.url).pathname

/** Asks until `id` is no longer running, for at most `ms` (the server notices a closed socket at once; the margin is for a loaded machine). */
const stoppedWithin = async (processes: ReturnType<typeof postgresLiveness>, id: string, ms: number) => {
  const deadline = Date.now() + ms
  while ((await processes.isRunning(id)) && Date.now() < deadline) await delay(20)
  return !(await processes.isRunning(id))
}

describe.skipIf(databaseUrl === undefined)("postgresLiveness", () => {
  it("tells a running process from one killed with SIGKILL, at once", async () => {
    const observer = postgresLiveness({ connectionString: databaseUrl as string, connectionTimeoutMs: 10_000 })
    const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", holder, databaseUrl as string], {
      stdio: ["ignore", "pipe", "inherit"],
    })
    try {
      const [id] = (await once(createInterface({ input: child.stdout }), "line")) as [string]
      expect(id).toMatch(/^pg:\d+:\d+$/)
      expect(await observer.isRunning(id)).toBe(true)
      expect(await observer.isRunning(await observer.self())).toBe(true)
      child.kill("SIGKILL")
      await once(child, "exit")
      expect(await stoppedWithin(observer, id, 5000)).toBe(true)
      // An id of another storage's kind, or of nothing, is not running.
      expect(await observer.isRunning("process:0f1e")).toBe(false)
      expect(await observer.isRunning("pg:1:1")).toBe(false)
    } finally {
      child.kill("SIGKILL")
      await observer.close()
    }
  }, 30_000)

  it("takes a new id after its session is lost, and the old one stops running", async () => {
    const processes = postgresLiveness({ connectionString: databaseUrl as string, connectionTimeoutMs: 10_000 })
    const observer = postgresLiveness({ connectionString: databaseUrl as string, connectionTimeoutMs: 10_000 })
    try {
      const first = await processes.self()
      const pid = Number(first.split(":")[1])
      await observer.isRunning(first)
      // The server ends the session, as a network break or a restart of the server would.
      const { default: pg } = await import("pg")
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      await client.query("select pg_terminate_backend($1)", [pid])
      await client.end()
      expect(await stoppedWithin(observer, first, 5000)).toBe(true)
      let second = await processes.self().catch(() => undefined)
      for (let i = 0; i < 50 && (second === undefined || second === first); i++) {
        await delay(20)
        second = await processes.self().catch(() => undefined)
      }
      expect(second).toMatch(/^pg:\d+:\d+$/)
      expect(second).not.toBe(first)
      expect(await observer.isRunning(second as string)).toBe(true)
    } finally {
      await processes.close()
      await observer.close()
    }
  }, 30_000)
})
