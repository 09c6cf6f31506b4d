const quote = 0x22
const backslash = 0x5c
const openBracket = 0x5b
const closeBracket = 0x5d
const openBrace = 0x7b
const closeBrace = 0x7d

/**
 * True when arrays and objects in a JSON text nest deeper than `maxDepth`, found in one pass over
 * the text before anything parses or walks it: brackets count outside strings only. Hostile
 * nesting is refused at the cost of reading it once, however deep it goes. Malformed text gets
 * an answer too; JSON.parse judges it afterwards.
 *
 * @example
 * exceedsJsonDepth('{"a":[[]]}', 2) // true: three levels
 * exceedsJsonDepth('{"a":"[[["}', 1) // false: brackets inside a string do not count
 */
export const exceedsJsonDepth = (text: string, maxDepth: number): boolean => {
  let depth = 0
  let inString = false
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (inString) {
      if (code === backslash) at++
      else if (code === quote) inString = false
    } else if (code === quote) {
      inString = true
    } else if (code === openBracket || code === openBrace) {
      depth++
      if (depth > maxDepth) return true
    } else if (code === closeBracket || code === closeBrace) {
      depth--
    }
  }
  return false
}

/** A value met on the walk, with the way back to the root (the path is built only when needed). */
interface Visit {
  readonly value: unknown
  readonly key: string | undefined
  readonly parent: Visit | undefined
}

const dottedPath = (visit: Visit): string => {
  const keys: Array<string> = []
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) keys.push(at.key)
  return keys.length === 0 ? "body" : keys.reverse().join(".")
}

/**
 * Where a parsed JSON value first holds the NUL character, which Postgres cannot store in text:
 * the dotted path of the string (`body` for the whole body or for a key), or undefined. Walks
 * without recursion and visits each value once, so the work is linear in the body's size.
 *
 * @example
 * findNulPath({ a: [{ b: "x\u0000" }] }) // "a.0.b"
 */
export const findNulPath = (value: unknown): string | undefined => {
  const pending: Array<Visit> = [{ value, key: undefined, parent: undefined }]
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    const current = visit.value
    if (typeof current === "string") {
      if (current.includes("\u0000")) return dottedPath(visit)
      continue
    }
    if (typeof current !== "object" || current === null) continue
    for (const [key, child] of Object.entries(current)) {
      if (key.includes("\u0000")) return "body"
      pending.push({ value: child, key, parent: visit })
    }
  }
  return undefined
}
