import { spawnSync } from "node:child_process"
import { createRequire } from "node:module"
import { describe, expect, it } from "vitest"

/*
 * better-sqlite3 is compiled for the Node that runs it. Compiled against the headers of Node 24.19
 * or later, a process using it aborts when the garbage collector frees its statements
 * (docs/decisions.md, "Node 24"); a test worker dying that way shows only "Worker exited
 * unexpectedly". This test names the cause: a real process prepares statements by the tens of
 * thousands, keeping the last thousand alive long enough to reach the old generation, and drops them.
 */

const addon = createRequire(import.meta.url).resolve("better-sqlite3")

const dropManyStatements = `
  const Database = require(process.argv[1])
  const db = new Database(":memory:")
  let alive = []
  for (let i = 0; i < 50000; i++) {
    alive.push(db.prepare("select 1"))
    if (alive.length === 1000) alive = []
  }
  db.close()
  setTimeout(() => console.log("statements dropped"), 100)
`

describe("the SQLite addon (better-sqlite3) as built for this Node", () => {
  it("lets the garbage collector free tens of thousands of statements without aborting the process", () => {
    const run = spawnSync(process.execPath, ["-e", dropManyStatements, addon], { encoding: "utf8", timeout: 60_000 })
    expect(run.stderr, "built against Node 24.19+ headers? see docs/decisions.md, Node 24").not.toContain(
      "Assertion failed",
    )
    expect({ status: run.status, signal: run.signal, stdout: run.stdout.trim() }).toEqual({
      status: 0,
      signal: null,
      stdout: "statements dropped",
    })
  })
})
