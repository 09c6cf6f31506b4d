import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { openStorageFromUrl, parseStorageUrl } from "../src/index.ts"

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
    const storage = await openStorageFromUrl("sqlite::memory:")
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
