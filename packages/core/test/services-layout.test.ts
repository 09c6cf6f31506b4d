import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/** Core's services: one folder per resource of use cases, and `steps/`, what they are made of. */
const servicesRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../src/services")

/** The folder of the helpers every use case may use; every other folder holds use cases. */
const stepsFolder = "steps"

const sourceFiles = (folder: string): ReadonlyArray<string> =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : []
  })

/** The relative modules a file imports, resolved, whether for types or values, static or dynamic. */
const importsOf = (file: string): ReadonlyArray<string> =>
  [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((match) =>
    resolve(dirname(file), match[1] as string),
  )

/** A use-case file: any file of services/ outside `steps/`. */
const isUseCaseFile = (path: string) => {
  const inServices = relative(servicesRoot, path)
  return !inServices.startsWith("..") && inServices.split("/")[0] !== stepsFolder
}

/** Every import of a use-case file that a services file makes, as "importer -> imported". */
const useCaseImports = (): ReadonlyArray<string> =>
  sourceFiles(servicesRoot).flatMap((file) =>
    importsOf(file)
      .filter(isUseCaseFile)
      .map((imported) => `${relative(servicesRoot, file)} -> ${relative(servicesRoot, imported)}`),
  )

describe("core's services", () => {
  it("hold use cases in folders by resource and helpers in steps/, with no loose file", () => {
    const loose = readdirSync(servicesRoot, { withFileTypes: true }).filter((entry) => !entry.isDirectory())
    expect(loose.map((entry) => entry.name)).toEqual([])
  })

  it("import no use-case file: what two use cases share is a step", () => {
    expect(useCaseImports()).toEqual([])
  })
})
