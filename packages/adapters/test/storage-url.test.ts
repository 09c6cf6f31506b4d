import { randomBytes } from "node:crypto"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { type MigrationStep, openStorageFromUrl, parseStorageUrl } from "../src/index.ts"
import { kyselyStorageOf, postgresDialect, sqliteDialect, storageMigrations } from "../src/kysely.ts"
import { graphileWorkerSchema } from "../src/postgres.ts"

describe("parseStorageUrl", () => {
  it("reads SQLite files, SQLite in memory and Postgres URLs", () => {
    expect(parseStorageUrl("sqlite:./data/payments.sqlite")).toEqual({
      dialect: "sqlite",
      filename: "./data/payments.sqlite",
    })
    expect(parseStorageUrl("sqlite:///var/lib/payments.sqlite")).toEqual({
      dialect: "sqlite",
      filename: "/var/lib/payments.sqlite",
    })
    expect(parseStorageUrl("sqlite::memory:")).toEqual({ dialect: "sqlite", filename: ":memory:" })
    expect(parseStorageUrl("postgres://app:pw@db:5432/payments")).toEqual({
      dialect: "postgres",
      connectionString: "postgres://app:pw@db:5432/payments",
    })
    expect(parseStorageUrl("postgresql://db/payments?schema=engine&sslmode=require")).toEqual({
      dialect: "postgres",
      connectionString: "postgresql://db/payments?sslmode=require",
      schema: "engine",
    })
  })

  it("refuses anything else with an error that names the accepted forms", () => {
    for (const url of ["", "payments.sqlite", "sqlite:", "mysql://root@db/payments", "http://db", "postgres://["]) {
      expect(() => parseStorageUrl(url)).toThrow(/Unsupported DATABASE_URL.*sqlite:<path>/)
    }
    expect(() => parseStorageUrl("postgres://db/payments?schema=")).toThrow("schema parameter is empty")
  })

  it("does not repeat credentials in its errors", () => {
    expect(() => parseStorageUrl("mysql://root:hunter2@db/payments")).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("hunter2") }),
    )
  })
})

describe("openStorageFromUrl", () => {
  const folder = mkdtempSync(join(tmpdir(), "payments-engine-url-"))
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  it("opens SQLite in memory", async () => {
    const storage = kyselyStorageOf(await openStorageFromUrl("sqlite::memory:"))
    expect({ dialect: storage.dialect.name, capabilities: storage.capabilities }).toEqual({
      dialect: "sqlite",
      capabilities: { multiProcess: false, concurrentTransactions: false },
    })
    await storage.close()
  })

  it("opens a SQLite file, creating its folder", async () => {
    const filename = join(folder, "nested", "deeper", "payments.sqlite")
    const storage = await openStorageFromUrl(`sqlite:${filename}`)
    expect(existsSync(filename)).toBe(true)
    await storage.close()
  })

  it("rejects an unsupported URL before touching anything", async () => {
    await expect(openStorageFromUrl("redis://localhost:6379")).rejects.toThrow(
      'Unsupported DATABASE_URL scheme "redis:"',
    )
  })
})

describe("openStorageFromUrl's migration steps", () => {
  const folder = mkdtempSync(join(tmpdir(), "payments-engine-steps-"))
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  /** Opens and closes the storage of `url`, answering the steps it told of. */
  const stepsOpening = async (url: string) => {
    const steps: Array<MigrationStep> = []
    const storage = await openStorageFromUrl(url, { onMigration: (step) => steps.push(step) })
    await storage.close()
    return steps
  }

  it("tells each step of a new SQLite database with its duration, and none when it is current", async () => {
    const names = Object.keys(await storageMigrations(sqliteDialect).getMigrations())
    const url = `sqlite:${join(folder, "steps.sqlite")}`
    const first = await stepsOpening(url)
    expect(first.map((step) => step.name)).toEqual(names)
    for (const step of first) expect(Number.isInteger(step.durationMs) && step.durationMs >= 0).toBe(true)
    expect(await stepsOpening(url)).toEqual([])
  })

  it.runIf(process.env.DATABASE_URL?.startsWith("postgres"))(
    "tells graphile-worker's schema, then each step, on a new Postgres schema",
    async () => {
      const names = Object.keys(await storageMigrations(postgresDialect).getMigrations())
      const schema = `test_steps_${randomBytes(5).toString("hex")}`
      const url = new URL(process.env.DATABASE_URL ?? "")
      url.searchParams.set("schema", schema)
      try {
        expect((await stepsOpening(url.toString())).map((step) => step.name)).toEqual(["graphile_worker", ...names])
        expect((await stepsOpening(url.toString())).map((step) => step.name)).toEqual(["graphile_worker"])
      } finally {
        const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
        await client.connect()
        for (const each of [schema, graphileWorkerSchema(schema)])
          await client.query(`drop schema if exists "${each}" cascade`)
        await client.end()
      }
    },
  )
})
