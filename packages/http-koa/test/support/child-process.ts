import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"

/** The repository root, where `node --conditions=source --import tsx` finds tsx. */
export const repositoryRoot = fileURLToPath(new URL("../../../..", import.meta.url))

/** The environment of a child: ours without the service's variables (OpenTelemetry's too), plus `overrides`. */
export const childEnvironment = (overrides: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of Object.keys(env)) {
    if (
      name === "PORT" ||
      name === "DATABASE_URL" ||
      name === "LOG_LEVEL" ||
      name.startsWith("PAYMENTS_") ||
      name.startsWith("OTEL_")
    )
      delete env[name]
  }
  return { ...env, ...overrides }
}

/** A finished child: exit code and output. */
export interface ChildResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `node <args>` from the repository root to the end. */
export const runNode = async (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv): Promise<ChildResult> => {
  const child = spawn(process.execPath, [...args], { cwd: repositoryRoot, env, stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk
  })
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
  })
  const [code] = (await once(child, "close")) as [number | null]
  return { code, stdout, stderr }
}

/** A running child whose standard output is read line by line. */
export interface LineWatcher {
  readonly child: ChildProcess
  /** Every stdout line so far. */
  readonly lines: Array<string>
  /** Everything written to stderr so far. */
  readonly stderr: () => string
  /** Resolves with the first line (past or future) that matches; rejects if the child exits first. */
  waitForLine(matches: (line: string) => boolean): Promise<string>
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>
  /**
   * Resolves once standard output has ended: every process holding it is gone, the child's own
   * children included (a shell's, npm's), which may outlive the child.
   */
  readonly outputEnded: Promise<void>
}

/** Starts `node <args>` from the repository root and watches its output. */
export const startNode = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv): LineWatcher =>
  startProcess(process.execPath, args, env)

/**
 * Starts `command` (found on the PATH) in the repository root, watching its standard output line
 * by line; see {@link startNode}.
 */
export const startProcess = (command: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv): LineWatcher => {
  const child = spawn(command, [...args], { cwd: repositoryRoot, env, stdio: ["ignore", "pipe", "pipe"] })
  const lines: Array<string> = []
  const waiters = new Set<{ matches: (line: string) => boolean; resolve: (line: string) => void }>()
  let stderr = ""
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
  })
  const reader = createInterface({ input: child.stdout as NodeJS.ReadableStream })
  const outputEnded = once(reader, "close").then(() => undefined)
  reader.on("line", (line) => {
    lines.push(line)
    for (const waiter of waiters) {
      if (waiter.matches(line)) {
        waiters.delete(waiter)
        waiter.resolve(line)
      }
    }
  })
  const exited = once(child, "exit").then(([code]) => code as number | null)
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    outputEnded,
    waitForLine: (matches) => {
      const seen = lines.find(matches)
      if (seen !== undefined) return Promise.resolve(seen)
      return new Promise<string>((resolve, reject) => {
        const waiter = { matches, resolve }
        waiters.add(waiter)
        exited.then((code) => {
          if (waiters.delete(waiter)) {
            reject(new Error(`exited with ${code} before the line; stdout:\n${lines.join("\n")}\nstderr:\n${stderr}`))
          }
        })
      })
    },
  }
}

/** A JSON log line's message is `msg`. */
export const logMessage =
  (msg: string) =>
  (line: string): boolean => {
    try {
      return (JSON.parse(line) as { msg?: unknown }).msg === msg
    } catch {
      return false
    }
  }
