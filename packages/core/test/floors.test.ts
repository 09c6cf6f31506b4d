import { readdirSync, readFileSync } from "node:fs"
import { posix } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/**
 * Core's floors, lowest first (docs/architecture.md, "Inside core"): a file stands on the floor of
 * the first folder or file here that holds it. An import may go down a floor or stay on its own.
 */
const floors: ReadonlyArray<ReadonlyArray<string>> = [
  ["money/", "errors.ts", "domain-error.ts"],
  ["model/"],
  ["rules/", "machines/"],
  ["ports/"],
  ["services/", "jobs/"],
  ["engine.ts", "engine-effects.ts", "engine-services.ts", "index.ts", "effect.ts"],
]

/** An import from one file of `src` to another, both as paths relative to `src`. */
interface Arrow {
  readonly from: string
  readonly to: string
}

/** The floor a file stands on, or -1 for a file no floor holds. */
const floorOf = (file: string) => floors.findIndex((floor) => floor.some((place) => file.startsWith(place)))

/** The folder (or top-level file) a file is in: `rules`, `machines`, `engine.ts` ... */
const placeOf = (file: string) => file.split("/")[0]

const between = (arrow: Arrow, one: string, other: string) =>
  (placeOf(arrow.from) === one && placeOf(arrow.to) === other) ||
  (placeOf(arrow.from) === other && placeOf(arrow.to) === one)

/**
 * A use-case file: a file of services/ outside `steps/`. Services hold one folder of use cases per
 * resource and `steps/`, what the use cases are made of.
 */
const isUseCaseFile = (file: string) => file.startsWith("services/") && file.split("/")[1] !== "steps"

/**
 * Imports that break the floors, one rule a line: a rule says why its arrows are wrong. Rules and
 * machines share a floor yet stay apart, so each can be read without the other.
 */
const forbidden: ReadonlyArray<{ readonly rule: string; readonly breaks: (arrow: Arrow) => boolean }> = [
  { rule: "goes up a floor", breaks: ({ from, to }) => floorOf(to) > floorOf(from) },
  { rule: "goes across between rules and machines", breaks: (arrow) => between(arrow, "rules", "machines") },
  {
    rule: "imports a use-case file: what two use cases share is a step",
    breaks: ({ from, to }) => placeOf(from) === "services" && isUseCaseFile(to),
  },
]

/** Lines that are comments: a JSDoc example may show an import that the file does not make. */
const commentLine = /^\s*(\/\/|\/\*|\*)/

/**
 * The module specifiers a file names: `import` and `export ... from` statements, `import type`
 * included, at the start of a line (biome formats them so, over as many lines as they take), and
 * `import("...")` anywhere outside comment lines.
 */
const specifiersOf = (text: string): ReadonlyArray<string> => {
  const code = text
    .split("\n")
    .filter((line) => !commentLine.test(line))
    .join("\n")
  const statements = /^(?:import|export)\b[^"'`;]*?\bfrom\s*["']([^"']+)["']|^import\s*["']([^"']+)["']/gm
  const dynamic = /\bimport\(\s*["']([^"']+)["']\s*\)/g
  return [...code.matchAll(statements), ...code.matchAll(dynamic)].map((match) => match[1] ?? match[2] ?? "")
}

const src = fileURLToPath(new URL("../src/", import.meta.url))

/** Core's source files, tests left out: a test may reach any floor to set up what it checks. */
const files = readdirSync(src, { recursive: true, encoding: "utf8" })
  .map((file) => file.split("\\").join("/"))
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
  .sort()

const specifiers = new Map(files.map((file) => [file, specifiersOf(readFileSync(`${src}/${file}`, "utf8"))]))

const arrows: ReadonlyArray<Arrow> = files.flatMap((from) =>
  (specifiers.get(from) ?? [])
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => ({ from, to: posix.normalize(posix.join(posix.dirname(from), specifier)) })),
)

/** The import circles of a graph: its strongly connected components of more than one file, or of one that imports itself. */
const circlesOf = (edges: ReadonlyArray<Arrow>): ReadonlyArray<ReadonlyArray<string>> => {
  const next = new Map<string, Array<string>>()
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to])
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const circles: Array<Array<string>> = []
  const visit = (file: string) => {
    index.set(file, index.size)
    low.set(file, index.get(file)!)
    stack.push(file)
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(file, Math.min(low.get(file)!, low.get(to)!))
      } else if (stack.includes(to)) {
        low.set(file, Math.min(low.get(file)!, index.get(to)!))
      }
    }
    if (low.get(file) !== index.get(file)) return
    const component = stack.splice(stack.indexOf(file))
    if (component.length > 1 || (next.get(file) ?? []).includes(file)) circles.push(component.sort())
  }
  for (const file of next.keys()) if (!index.has(file)) visit(file)
  return circles
}

describe("core's floors", () => {
  it("reads every form of import, type-only and re-exports included, and none in comments", () => {
    const text = [
      'import { Effect } from "effect"',
      'import type { A } from "./a.ts"',
      "import {",
      "  type B,",
      "  c,",
      '} from "../b.ts"',
      'export * from "./c.ts"',
      'export type * from "./d.ts"',
      'export { e } from "./e.ts"',
      'export type { F } from "./f.ts"',
      'import "./g.ts"',
      'type H = import("./h.ts").H',
      "/**",
      ' * import { nothing } from "./not-an-import.ts"',
      " */",
      'const text = "import x from y"',
    ].join("\n")
    expect(specifiersOf(text)).toEqual([
      "effect",
      "./a.ts",
      "../b.ts",
      "./c.ts",
      "./d.ts",
      "./e.ts",
      "./f.ts",
      "./g.ts",
      "./h.ts",
    ])
  })

  it("finds the files of an import circle", () => {
    const edges = [
      { from: "a.ts", to: "b.ts" },
      { from: "b.ts", to: "c.ts" },
      { from: "c.ts", to: "a.ts" },
      { from: "c.ts", to: "d.ts" },
      { from: "e.ts", to: "e.ts" },
    ]
    expect(circlesOf(edges)).toEqual([["a.ts", "b.ts", "c.ts"], ["e.ts"]])
  })

  it("places every source file on a floor, and every relative import on a source file", () => {
    expect(files.length).toBeGreaterThan(100)
    expect(files.filter((file) => floorOf(file) === -1)).toEqual([])
    expect(arrows.filter(({ to }) => !files.includes(to))).toEqual([])
  })

  it("has no import that goes up a floor, across between rules and machines, or from services into a use case", () => {
    const broken = arrows.flatMap((arrow) =>
      forbidden.filter(({ breaks }) => breaks(arrow)).map(({ rule }) => `${arrow.from} -> ${arrow.to}: ${rule}`),
    )
    expect(broken).toEqual([])
  })

  it("holds use cases in services/ folders by resource and helpers in steps/, with no loose file", () => {
    const loose = readdirSync(`${src}/services`, { withFileTypes: true }).filter((entry) => !entry.isDirectory())
    expect(loose.map((entry) => entry.name)).toEqual([])
  })

  it("has no import circle", () => {
    expect(circlesOf(arrows)).toEqual([])
  })

  it("imports no node: module (core runs wherever effect does)", () => {
    const nodeImports = files.flatMap((file) =>
      (specifiers.get(file) ?? []).filter((specifier) => specifier.startsWith("node:")).map((s) => `${file}: ${s}`),
    )
    expect(nodeImports).toEqual([])
  })
})
