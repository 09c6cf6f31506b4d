import { execFile } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { type CodeExample, markdownExamples, packageExamples, writeExampleProject } from "./support/code-examples.ts"

const root = resolve(import.meta.dirname, "..")

/** openapi-typescript writes the OpenAPI document's example values as `@example`: data, not code. */
const generated = ["packages/client/src/generated/"]

const documents = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
]

/**
 * Blocks that need a package this repository does not install, each with why: they stay
 * unchecked, and the test fails when one no longer matches a block.
 */
const uncheckable = [
  { file: "docs/adapters.md", contains: "@aws-sdk/client-s3", why: "the S3 blob store sketch needs the AWS SDK" },
]
const isUncheckable = (example: CodeExample) =>
  uncheckable.some(
    ({ file, contains }) => example.file === file && example.lines.some((l) => l.text.includes(contains)),
  )

const directory = mkdtempSync(join(tmpdir(), "code-examples-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

describe("code examples", () => {
  it("of every JSDoc @example and every TypeScript block of the README and docs type-check", async () => {
    const blocks = documents.flatMap((file) => markdownExamples(root, file))
    expect(blocks.filter(isUncheckable)).toHaveLength(uncheckable.length)
    const examples: ReadonlyArray<CodeExample> = [
      ...packageExamples(root, generated),
      ...blocks.filter((block) => !isUncheckable(block)),
    ]
    expect(examples.length).toBeGreaterThan(250)
    const project = writeExampleProject(root, directory, examples, join(root, "test/support/example-prelude.ts"))
    const tsc = join(root, "node_modules/.bin/tsc")
    const output = await promisify(execFile)(tsc, ["-p", project.tsconfig, "--pretty", "false"], {
      cwd: directory,
      maxBuffer: 64 * 1024 * 1024,
    }).then(
      ({ stdout }) => stdout,
      (error: { stdout?: string; message: string }) => error.stdout || error.message,
    )
    const errors = project.errorsOf(output).map((error) => `${error.where}: ${error.message}`)
    expect(errors.join("\n")).toBe("")
  }, 180_000)
})
