import { execFile } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { shellBlocks, stepsOf } from "./support/shell-blocks.ts"
import { environment, freePort, startNpm, stopGroup, walkThrough } from "./support/walkthrough.ts"

const root = resolve(import.meta.dirname, "..")
const guide = readFileSync(join(root, "docs/embedding.md"), "utf8")
const readme = readFileSync(join(root, "README.md"), "utf8").split("\n")

/** The README's lines from the heading `from` to the next `## ` heading after `to`. */
const linesOf = (from: string, to: string) => {
  const start = readme.indexOf(from) + 1
  const last = readme.findIndex((text, index) => index > readme.indexOf(to) && text.startsWith("## "))
  expect(start).toBeGreaterThan(0)
  return { first: start, last: last === -1 ? readme.length : last }
}

describe("docs/embedding.md: the README's walkthrough through a mounted example", () => {
  const { first, last } = linesOf("## A first walkthrough", "## Paying a recipient")
  const steps = shellBlocks(root, "README.md")
    .filter((block) => (block.lines[0]?.line ?? 0) > first && (block.lines[0]?.line ?? 0) < last)
    .flatMap(stepsOf)
  // What the guide says to change: the first line's `BASE`.
  const base = /`(BASE=\S+\/payments)`/.exec(guide)?.[1]

  it.each(["express", "fastify"])("pays a recipient through examples/%s, as the guide says", async (example) => {
    expect(base).toBeDefined()
    expect(guide).toContain(`-w examples/${example}`)
    expect(steps.length).toBeGreaterThan(10)
    const env = environment({ PORT: String(await freePort()) })
    const server = await startNpm(["start", "-w", `examples/${example}`], env, "API secret: ")
    try {
      const rewrite = (commands: string) => commands.replace(/^BASE=\S+/m, base as string)
      expect(await walkThrough(steps, server.printed as { key: string; secret: string }, env, rewrite)).toEqual([])
    } finally {
      await stopGroup(server.child, server.exited)
    }
  }, 200_000)
})

/** TypeScript 5, which openapi-typescript brings to the client package. */
const typescript5 = dirname(
  createRequire(join(root, "packages/client/package.json")).resolve("typescript/package.json"),
)

const directory = mkdtempSync(join(tmpdir(), "embedding-ts5-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const examples = ["express", "fastify"]

/**
 * The import errors of TypeScript 5 on the examples' files copied into a project of their own,
 * one folder each. Imports are not followed (`noResolve`): the packages' types are the consumer
 * check's (.ci/consumer); this is about each example's own `./server.ts` import.
 */
const importErrorsOf = async (options: Record<string, unknown>) => {
  const project = mkdtempSync(join(directory, "project-"))
  const files = examples.flatMap((example) => {
    mkdirSync(join(project, example))
    return ["main.ts", "server.ts"].map((file) => {
      copyFileSync(join(root, "examples", example, "src", file), join(project, example, file))
      return `${example}/${file}`
    })
  })
  const compilerOptions = { module: "nodenext", strict: true, noEmit: true, noResolve: true, types: [], ...options }
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files }))
  const output = await promisify(execFile)(process.execPath, [join(typescript5, "bin/tsc"), "-p", project]).then(
    ({ stdout }) => stdout,
    (error: { stdout: string }) => error.stdout,
  )
  // Only the examples' own modules: with noResolve every package import is unresolved.
  return output
    .split("\n")
    .filter((line) => /error TS5097/.test(line) || (/error TS2307/.test(line) && line.includes("'./")))
    .map((line) => line.replace(/\(.*$/, "").split("/").slice(-2).join("/"))
}

describe("docs/embedding.md: the examples copied into a TypeScript 5 project", () => {
  it("compile their .ts imports with the option the guide names, and not without it", async () => {
    expect(JSON.parse(readFileSync(join(typescript5, "package.json"), "utf8")).version).toMatch(/^5\./)
    const option = /`"(rewriteRelativeImportExtensions)": true`/.exec(guide)?.[1]
    expect(option).toBeDefined()
    expect(await importErrorsOf({ [option as string]: true })).toEqual([])
    // What the guide says happens without it (TS5097 on each example's `./server.ts`).
    expect(await importErrorsOf({})).toEqual(["express/main.ts", "fastify/main.ts"])
  }, 120_000)
})
