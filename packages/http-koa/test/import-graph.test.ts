import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/*
 * The import graph of http-koa's sources, read from the text: TypeScript 7 has no JavaScript
 * compiler API to ask. Comments are blanked first (their examples hold import-like text), then
 * every `import … from`, `export … from`, bare `import "…"` and `import("…")` of a relative path
 * is an arrow, `import type` included: a circle of types still says two files cannot be read apart.
 */

const sourceRoot = fileURLToPath(new URL("../src", import.meta.url))

const sourceFiles = (folder: string): Array<string> =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })

/** `text` with its comments replaced by spaces, strings and template literals left as they are. */
const withoutComments = (text: string): string => {
  let out = ""
  let i = 0
  while (i < text.length) {
    const two = text.slice(i, i + 2)
    if (two === "//" || two === "/*") {
      const end = two === "//" ? text.indexOf("\n", i) : text.indexOf("*/", i + 2) + 2
      const stop = end <= 1 || end === -1 ? text.length : end
      out += text.slice(i, stop).replace(/[^\n]/g, " ")
      i = stop
      continue
    }
    const quote = text[i]
    if (quote === '"' || quote === "'" || quote === "`") {
      let j = i + 1
      while (j < text.length && text[j] !== quote) j += text[j] === "\\" ? 2 : 1
      out += text.slice(i, j + 1)
      i = j + 1
      continue
    }
    out += text[i]
    i += 1
  }
  return out
}

const importSpecifier = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(["'])([^"'\n]+)\1/gm

/** The files of `src` that `file` imports, as paths relative to `src`. */
const importsOf = (file: string): Array<string> =>
  [...withoutComments(readFileSync(file, "utf8")).matchAll(importSpecifier)]
    .map((match) => match[2] ?? "")
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => relative(sourceRoot, resolve(dirname(file), specifier)))

/** Every file of `src` (relative to it) with the files it imports. */
const importGraph = (): Map<string, Array<string>> =>
  new Map(sourceFiles(sourceRoot).map((file) => [relative(sourceRoot, file), importsOf(file)]))

/** The graph's circles, each as the files of one strongly connected component (Tarjan). */
const importCircles = (graph: ReadonlyMap<string, ReadonlyArray<string>>): Array<Array<string>> => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const circles: Array<Array<string>> = []
  const visit = (file: string) => {
    index.set(file, index.size)
    low.set(file, index.get(file) ?? 0)
    stack.push(file)
    onStack.add(file)
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue
      if (!index.has(target)) visit(target)
      if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0))
    }
    if (low.get(file) !== index.get(file)) return
    const component: Array<string> = []
    let member: string | undefined
    do {
      member = stack.pop()
      if (member === undefined) break
      onStack.delete(member)
      component.push(member)
    } while (member !== file)
    const importsItself = graph.get(file)?.includes(file) ?? false
    if (component.length > 1 || importsItself) circles.push(component.sort())
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return circles
}

describe("http-koa's import graph", () => {
  const graph = importGraph()

  it("is read from the sources: the Koa app imports the request state", () => {
    expect(graph.get("binding/app.ts")).toContain("binding/app-state.ts")
  })

  it("has no import circle", () => {
    expect(importCircles(graph)).toEqual([])
  })

  it("finds a circle, of two files or through a third", () => {
    expect(
      importCircles(
        new Map([
          ["a", ["b"]],
          ["b", ["c"]],
          ["c", ["a"]],
          ["d", ["a"]],
        ]),
      ),
    ).toEqual([["a", "b", "c"]])
  })

  it("keeps the binding free of the service: an embedder mounting the app loads no command", () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      file.startsWith("binding/")
        ? targets.filter((target) => target.startsWith("service/")).map((t) => `${file} -> ${t}`)
        : [],
    )
    expect(upward).toEqual([])
  })
})
