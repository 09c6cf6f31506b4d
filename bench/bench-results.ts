/**
 * Writes a bench's results into docs/benchmarks.md: the section under `heading` is replaced up to
 * the next `## ` heading (so hand-written sections after it stay), or added at the end.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"

export const writeResultsSection = (heading: string, text: string): void => {
  const resultsFile = new URL("../docs/benchmarks.md", import.meta.url)
  const previous = existsSync(resultsFile) ? readFileSync(resultsFile, "utf8") : ""
  const start = previous.indexOf(`${heading}\n`)
  const next = start === -1 ? -1 : previous.indexOf("\n## ", start + 1)
  const updated =
    start === -1
      ? `${previous.trimEnd()}\n\n${text}`
      : `${previous.slice(0, start)}${text}${next === -1 ? "" : previous.slice(next)}`
  writeFileSync(resultsFile, updated)
  console.log(text)
}
