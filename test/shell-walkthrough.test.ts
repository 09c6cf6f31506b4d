import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { type ShellBlock, shellBlocks, stepsOf } from "./support/shell-blocks.ts"
import { environment, freePort, startNpm, stopGroup, walkThrough } from "./support/walkthrough.ts"

const root = resolve(import.meta.dirname, "..")

const documents = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
]

/**
 * Shell blocks that cannot run here, each with why: they stay unrun, and the test fails when one
 * no longer matches a block.
 */
const uncheckable = [
  {
    file: "README.md",
    contains: "npm install && npm start",
    why: "installs and starts the service: this test starts it with `npm start` itself",
  },
  {
    file: "README.md",
    contains: "npm install @payments-engine/http-koa",
    why: "installs from a registry: .ci/consumer runs it on the packed tarballs",
  },
  {
    file: "README.md",
    contains: "npx payments-engine keys create --workspace acme [--scope read]",
    why: "a synopsis, optional arguments in brackets: cli.test.ts runs each command",
  },
  {
    file: "docs/adapters.md",
    contains: "npx vitest run my-storage.test.ts",
    why: "runs the reader's own storage test, which this repository has not",
  },
]
const isUncheckable = (block: ShellBlock) =>
  uncheckable.some(({ file, contains }) => block.file === file && block.lines.some((l) => l.text.includes(contains)))

const directory = mkdtempSync(join(tmpdir(), "shell-walkthrough-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

describe("the shell blocks of the README and docs", () => {
  it("run as written, in order, twice on the same database, printing what the text shows", async () => {
    const blocks = documents.flatMap((file) => shellBlocks(root, file))
    expect(blocks.filter(isUncheckable)).toHaveLength(uncheckable.length)
    const steps = blocks.filter((block) => !isUncheckable(block)).flatMap(stepsOf)
    expect(steps.length).toBeGreaterThan(50)
    const env = environment({
      PORT: String(await freePort()),
      HOOKS_PORT: String(await freePort()),
      DATABASE_URL: `sqlite:${join(directory, "payments.sqlite")}`,
    })
    let key: { key: string; secret: string } | undefined
    for (const run of [1, 2]) {
      const service = await startNpm(["start"], env, '"msg":"listening"')
      try {
        if (run === 1) key = service.printed
        expect(key, "the first start prints a key").toBeDefined()
        expect({ run, failures: await walkThrough(steps, key as { key: string; secret: string }, env) }).toEqual({
          run,
          failures: [],
        })
      } finally {
        await stopGroup(service.child, service.exited)
      }
    }
  }, 400_000)

  it("link only to files inside the repository", () => {
    const outside = documents.flatMap((file) =>
      [...readFileSync(join(root, file), "utf8").matchAll(/\]\(([^)\s]+)\)/g)]
        .map((match) => (match[1] as string).replace(/#.*$/, ""))
        .filter((target) => target !== "" && !/^[a-z]+:/.test(target))
        .map((target) => ({ file, target, path: resolve(root, dirname(file), target) }))
        .filter(({ path }) => !path.startsWith(`${root}/`) || !existsSync(path))
        .map(({ file, target }) => `${file}: ${target}`),
    )
    expect(outside).toEqual([])
  })
})
