import { readFileSync } from "node:fs"
import { join } from "node:path"

/**
 * One step of a shell block: commands, and what the text says they print.
 *
 * The convention (docs/decisions.md, "Runnable docs"): inside a ```sh block, the comment lines
 * (`# ...`) that follow a command, up to the next command, are what that command prints. In them
 * `...` stands for any text, and an id (`per_01M85XFVZ9JGJ97JFHAYSYBH2N`), a UUID or a timestamp
 * (`2026-11-24T04:37:10.655Z`) for any other of its kind. Whitespace is not compared, so a long
 * answer may be wrapped and indented.
 */
export interface ShellStep {
  readonly file: string
  /** Source line of the step's first command. */
  readonly line: number
  readonly commands: string
  /** undefined when the text shows no output for it. */
  readonly expected: string | undefined
}

/** A ```sh block, with the source line of each of its lines. */
export interface ShellBlock {
  readonly file: string
  readonly lines: ReadonlyArray<{ readonly text: string; readonly line: number }>
}

export const shellBlocks = (root: string, file: string): ReadonlyArray<ShellBlock> => {
  const blocks: Array<ShellBlock> = []
  let current: Array<{ text: string; line: number }> | undefined
  readFileSync(join(root, file), "utf8")
    .split("\n")
    .forEach((text, index) => {
      if (current === undefined && /^```(sh|bash|shell|console)\s*$/.test(text)) {
        current = []
        blocks.push({ file, lines: current })
      } else if (current !== undefined && /^```/.test(text)) current = undefined
      else current?.push({ text, line: index + 1 })
    })
  return blocks
}

const isOutput = (text: string) => /^#( |$)/.test(text)

export const stepsOf = (block: ShellBlock): ReadonlyArray<ShellStep> => {
  const steps: Array<ShellStep> = []
  let commands: Array<string> = []
  let expected: Array<string> = []
  let line = 0
  const flush = () => {
    if (commands.some((text) => text.trim() !== "")) {
      steps.push({
        file: block.file,
        line,
        commands: commands.join("\n"),
        expected: expected.length === 0 ? undefined : expected.join("\n"),
      })
    }
    commands = []
    expected = []
  }
  for (const { text, line: at } of block.lines) {
    if (isOutput(text)) {
      if (commands.length === 0) throw new Error(`${block.file}:${at}: output shown before any command`)
      expected.push(text.replace(/^# ?/, ""))
    } else {
      if (expected.length > 0) flush()
      if (commands.length === 0) line = at
      commands.push(text)
    }
  }
  flush()
  return steps
}

const id = /\b([a-z]{2,5})_[0-9A-HJKMNP-TV-Z]{26}\b/g
const uuid = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g
const timestamp = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\b/g

/** Whether `actual` is what `expected` shows, by the convention of {@link ShellStep}. */
export const matchesShown = (expected: string, actual: string): boolean => {
  const placeholders: Array<string> = []
  const hold = (pattern: string) => `\uE000${placeholders.push(pattern) - 1}\uE000`
  // Placeholders first: whitespace around an id is what tells where it ends.
  const shown = expected
    .replace(/\.\.\./g, () => hold("[\\s\\S]*?"))
    .replace(id, (_, prefix: string) => hold(`${prefix}_[0-9A-HJKMNP-TV-Z]{26}`))
    .replace(uuid, () => hold("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"))
    .replace(timestamp, () => hold("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z"))
    .replace(/\s+/g, "")
  const pattern = shown
    .split(/\uE000(\d+)\uE000/)
    .map((part, index) => (index % 2 === 1 ? placeholders[Number(part)] : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("")
  return new RegExp(`^${pattern}$`).test(actual.replace(/\s+/g, ""))
}
