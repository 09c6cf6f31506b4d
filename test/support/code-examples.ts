import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

/** One piece of example code and where it was written. */
export interface CodeExample {
  /** Path from the repository root. */
  readonly file: string
  /** The package folder under packages/ it belongs to; undefined for README.md and docs/*.md. */
  readonly packageFolder: string | undefined
  /** The code, one entry per line, with the source line of each. */
  readonly lines: ReadonlyArray<{ readonly text: string; readonly line: number }>
}

const sourceFiles = (directory: string): ReadonlyArray<string> =>
  readdirSync(directory).flatMap((name) => {
    const path = join(directory, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
  })

/** A JSDoc line without its leading `*` (and one space) and without the closing `*\/`. */
const jsDocText = (line: string): string =>
  line
    .replace(/^\s*\/\*\*\s?/, "")
    .replace(/^\s*\*(?!\/)\s?/, "")
    .replace(/\s*\*\/\s*$/, "")

/**
 * Every `@example` of the JSDoc comments in `file`: the rest of the tag's line and the lines up to
 * the next tag or the comment's end, with ``` fences left out.
 */
export const jsDocExamples = (root: string, file: string, packageFolder: string): ReadonlyArray<CodeExample> => {
  const text = readFileSync(join(root, file), "utf8")
  const examples: CodeExample[] = []
  for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const firstLine = text.slice(0, comment.index).split("\n").length
    let current: Array<{ text: string; line: number }> | undefined
    comment[0].split("\n").forEach((raw, index) => {
      const body = jsDocText(raw)
      const tag = /^@(\w+)\s?(.*)$/.exec(body)
      if (tag) {
        current = undefined
        if (tag[1] !== "example") return
        current = []
        examples.push({ file, packageFolder, lines: current })
        if (tag[2]?.trim()) current.push({ text: tag[2], line: firstLine + index })
        return
      }
      if (current && !/^```/.test(body.trim())) current.push({ text: body, line: firstLine + index })
    })
  }
  return examples.filter((example) => example.lines.some((line) => line.text.trim() !== ""))
}

/** The ```ts and ```typescript blocks of a Markdown file. */
export const markdownExamples = (root: string, file: string): ReadonlyArray<CodeExample> => {
  const examples: CodeExample[] = []
  let current: Array<{ text: string; line: number }> | undefined
  readFileSync(join(root, file), "utf8")
    .split("\n")
    .forEach((text, index) => {
      if (current === undefined && /^```(ts|typescript)\s*$/.test(text)) {
        current = []
        examples.push({ file, packageFolder: undefined, lines: current })
      } else if (current !== undefined && /^```/.test(text)) current = undefined
      else current?.push({ text, line: index + 1 })
    })
  return examples
}

/** Every JSDoc example under packages/*\/src, less `skipped` (paths from the root, prefixes). */
export const packageExamples = (root: string, skipped: ReadonlyArray<string>): ReadonlyArray<CodeExample> =>
  readdirSync(join(root, "packages")).flatMap((packageFolder) =>
    sourceFiles(join(root, "packages", packageFolder, "src"))
      .map((path) => relative(root, path))
      .filter((file) => !skipped.some((prefix) => file.startsWith(prefix)))
      .flatMap((file) => jsDocExamples(root, file, packageFolder)),
  )

const withoutComments = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "")

/**
 * The names a module exports, read from its text (TypeScript 7 has no JavaScript API to ask):
 * declarations, `export { ... }` lists and `export *` of relative modules, followed.
 */
export const exportedNames = (file: string, seen = new Set<string>()): ReadonlySet<string> => {
  const names = new Set<string>()
  if (seen.has(file)) return names
  seen.add(file)
  const text = withoutComments(readFileSync(file, "utf8"))
  const declared =
    /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:const|let|var|function\*?|class|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/gm
  for (const match of text.matchAll(declared)) names.add(match[1] as string)
  for (const match of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const item of (match[1] as string).split(",")) {
      const name = item
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .at(-1)
      if (name && name !== "default") names.add(name)
    }
  }
  for (const match of text.matchAll(/^export\s+(?:type\s+)?\*\s+as\s+([A-Za-z_$][\w$]*)/gm))
    names.add(match[1] as string)
  for (const match of text.matchAll(/^export\s+(?:type\s+)?\*\s+from\s+["'](\.[^"']+)["']/gm)) {
    for (const name of exportedNames(resolve(dirname(file), match[1] as string), seen)) names.add(name)
  }
  return names
}

/** A module example code may import from: its specifier, and what it exports. */
export interface ImportSource {
  readonly specifier: string
  readonly names: ReadonlySet<string>
}

/** Packages lowest first: a name two of them export (`Page`) comes from the one the other builds on. */
const packageOrder = ["core", "adapters", "contract-tests", "http-koa", "client"]
const rank = (folder: string) => {
  const index = packageOrder.indexOf(folder)
  return index === -1 ? packageOrder.length : index
}

/** The public entries of our packages (package.json `exports`, source condition), by package folder. */
export const packageEntries = (root: string): ReadonlyMap<string, ReadonlyArray<ImportSource>> =>
  new Map(
    [...readdirSync(join(root, "packages"))]
      .sort((a, b) => rank(a) - rank(b))
      .map((folder) => {
        const manifest = JSON.parse(readFileSync(join(root, "packages", folder, "package.json"), "utf8")) as {
          name: string
          exports: Record<string, { source: string }>
        }
        const entries = Object.entries(manifest.exports).map(([subpath, conditions]) => ({
          specifier: subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
          names: exportedNames(join(root, "packages", folder, conditions.source)),
        }))
        // Core's `/effect` entry first: where a name is on both, its binding is the richer one
        // (`CompanyId` the id Schema, `Company` the Schema and its type), as the package's own
        // modules import it.
        entries.sort((a, b) => Number(b.specifier.endsWith("/effect")) - Number(a.specifier.endsWith("/effect")))
        return [folder, entries] as const
      }),
  )

/** Third-party names examples use without importing them, as their own modules do. */
const thirdParty: ImportSource[] = [
  { specifier: "effect", names: new Set(["Effect", "Either", "Schema", "Option"]) },
  { specifier: "kysely", names: new Set(["Kysely", "Migrator", "SqliteDialect"]) },
  { specifier: "graphql", names: new Set(["graphql", "parse"]) },
  { specifier: "@electric-sql/pglite", names: new Set(["PGlite"]) },
  { specifier: "graphql-http", names: new Set(["createHandler"]) },
  { specifier: "vitest", names: new Set(["afterAll", "expect"]) },
  { specifier: "node:http", names: new Set(["createServer"]) },
  { specifier: "node:fs", names: new Set(["createReadStream"]) },
  { specifier: "node:crypto", names: new Set(["randomBytes"]) },
]

/** An example as a module of the checking project, and where each of its lines came from. */
export interface ExampleModule {
  readonly text: string
  /** Source `file:line` by line of `text` (1-based; undefined for lines the checker added). */
  readonly origins: ReadonlyArray<string | undefined>
}

const identifier = /[A-Za-z_$][\w$]*/g

/**
 * The example as a module: a line that starts with `import` or `declare` goes to the top as it
 * is (how an example names what the prelude does not declare); the rest becomes the body of an
 * async function (a generator run by `Effect.gen` when it uses `yield*`), so its names may
 * shadow the prelude's. Before it, imports of every name it uses that its own module, then its
 * package's public entries, then the other packages' and a few third-party modules export.
 */
export const exampleModule = (example: CodeExample, sources: ReadonlyArray<ImportSource>): ExampleModule => {
  const top: Array<{ text: string; origin: string }> = []
  const body: Array<{ text: string; origin: string }> = []
  let inImport = false
  for (const { text, line } of example.lines) {
    const origin = `${example.file}:${line}`
    if (inImport || /^(import|declare)\s/.test(text)) {
      top.push({ text, origin })
      inImport = /^import\s/.test(text) || inImport ? !/\bfrom\s+["']|^import\s+["']/.test(text) : false
    } else body.push({ text: text.replace(/^export\s+/, ""), origin })
  }
  const topText = top.map((line) => line.text).join("\n")
  const ownNames = new Set([
    ...[...topText.matchAll(/^import\s+([\s\S]*?)\s+from/gm)].flatMap((m) => (m[1] as string).match(identifier) ?? []),
    ...[
      ...topText.matchAll(/^declare\s+(?:const|let|var|function|class|type|interface|namespace|enum)\s+([\w$]+)/gm),
    ].map((m) => m[1] as string),
  ])
  const usesYield = body.some((line) => /\byield\*/.test(line.text))
  // Names in a line comment (`// Kysely: ...`, `// { status: ... }`) are prose: not imported.
  const code = `${topText}\n${body.map((line) => line.text).join("\n")}`.replace(/(^|\s)\/\/.*$/gm, "")
  const used = new Set([...code.matchAll(identifier)].map((m) => m[0]))
  if (usesYield) used.add("Effect")
  const imports = new Map<string, string[]>()
  const taken = new Set(ownNames)
  for (const source of [...sources, ...thirdParty]) {
    for (const name of used) {
      if (taken.has(name) || !source.names.has(name)) continue
      taken.add(name)
      imports.set(source.specifier, [...(imports.get(source.specifier) ?? []), name])
    }
  }
  const start = `${example.file}:${example.lines[0]?.line}`
  const lines: Array<{ text: string; origin?: string }> = [
    { text: `// ${start}`, origin: start },
    ...[...imports].map(([specifier, names]) => ({
      text: `import { ${names.join(", ")} } from ${JSON.stringify(specifier)}`,
      origin: `${start} (the checker's import)`,
    })),
    ...top,
    { text: "export {}" },
    {
      text: usesYield ? "export const example = () => Effect.gen(function* () {" : "export async function example() {",
    },
    ...body,
    { text: usesYield ? "})" : "}" },
  ]
  return { text: `${lines.map((line) => line.text).join("\n")}\n`, origins: lines.map((line) => line.origin) }
}

/** One error of the checking run, placed on the example line it is about when it is in one. */
export interface ExampleError {
  readonly where: string
  readonly message: string
}

/**
 * Writes `examples` as modules of a project in `directory` (one folder per package, each seeing
 * that package's node_modules first, as its own sources do) that includes `prelude`, and returns
 * the tsconfig's path and a reader of tsc's output.
 */
export const writeExampleProject = (
  root: string,
  directory: string,
  examples: ReadonlyArray<CodeExample>,
  prelude: string,
): { tsconfig: string; errorsOf: (tscOutput: string) => ReadonlyArray<ExampleError> } => {
  const entries = packageEntries(root)
  // Last in line: the modules of the example's package its public entries leave out, as the
  // example reads beside them (`app.use(requestId())` in the access log's).
  const internal = new Map<string, ReadonlyArray<ImportSource>>()
  const internalModules = (folder: string | undefined): ReadonlyArray<ImportSource> => {
    if (folder === undefined) return []
    const known = internal.get(folder)
    if (known) return known
    const modules = sourceFiles(join(root, "packages", folder, "src")).map((file) => ({
      specifier: file,
      names: exportedNames(file),
    }))
    internal.set(folder, modules)
    return modules
  }
  const origins = new Map<string, ReadonlyArray<string | undefined>>()
  const link = (target: string, path: string) => {
    if (existsSync(target) && !existsSync(path)) symlinkSync(target, path, "dir")
  }
  link(join(root, "node_modules"), join(directory, "node_modules"))
  writeFileSync(join(directory, "package.json"), '{ "type": "module" }\n')
  examples.forEach((example, index) => {
    const folder = join(directory, example.packageFolder ?? "docs")
    mkdirSync(folder, { recursive: true })
    if (example.packageFolder !== undefined) {
      link(join(root, "packages", example.packageFolder, "node_modules"), join(folder, "node_modules"))
    }
    const own = example.packageFolder === undefined ? [] : (entries.get(example.packageFolder) ?? [])
    const others = [...entries].filter(([folder]) => folder !== example.packageFolder).flatMap(([, list]) => list)
    const ownModule =
      example.packageFolder === undefined
        ? []
        : [{ specifier: join(root, example.file), names: exportedNames(join(root, example.file)) }]
    const module = exampleModule(example, [...ownModule, ...own, ...others, ...internalModules(example.packageFolder)])
    const path = join(folder, `example-${String(index).padStart(3, "0")}.ts`)
    writeFileSync(path, module.text)
    origins.set(path, module.origins)
  })
  const tsconfig = join(directory, "tsconfig.json")
  writeFileSync(
    tsconfig,
    `${JSON.stringify(
      {
        extends: join(root, "tsconfig.base.json"),
        compilerOptions: {
          composite: false,
          declaration: false,
          emitDeclarationOnly: false,
          noEmit: true,
          types: ["node"],
          // The imports above each example are the checker's, written without knowing which
          // names are types; an example's own code is checked as strictly as the sources.
          verbatimModuleSyntax: false,
        },
        files: [prelude, ...origins.keys()],
      },
      null,
      2,
    )}\n`,
  )
  // tsc prints an error's first line at column 0 and the lines that explain it indented below.
  const errorsOf = (tscOutput: string): ReadonlyArray<ExampleError> =>
    tscOutput
      .split(/\n(?=\S)/)
      .filter((block) => /error TS\d+:/.test(block))
      .map((block) => {
        const match = /^(.*?)\((\d+),(\d+)\): (error TS\d+: [\s\S]*)$/.exec(block.trimEnd())
        if (!match) return { where: "tsc", message: block.trimEnd() }
        const [, file = "", row = "0", , message = ""] = match
        const origin = origins.get(resolve(directory, file))?.[Number(row) - 1]
        return { where: origin ?? relative(root, resolve(directory, file)), message }
      })
  return { tsconfig, errorsOf }
}
