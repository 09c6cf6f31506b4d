import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { readdirSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { join, resolve } from "node:path"
import { matchesShown, type ShellStep } from "./shell-blocks.ts"

/** The repository's root, where a reader runs the commands of the docs (`npm start -w ...` needs it). */
const root = resolve(import.meta.dirname, "../..")

export const freePort = async (): Promise<number> => {
  const server = createServer()
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  const { port } = server.address() as { port: number }
  server.close()
  return port
}

/** Ours without the service's variables, which the README's commands must not depend on. */
export const environment = (overrides: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of Object.keys(env)) {
    if (["PORT", "DATABASE_URL", "LOG_LEVEL", "HOOKS_PORT"].includes(name) || name.startsWith("PAYMENTS_"))
      delete env[name]
  }
  return { ...env, ...overrides }
}

/** A child in a process group of its own, so that what it starts in the background ends with it. */
export const spawnGroup = (command: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv) => {
  const child = spawn(command, [...args], { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk
  })
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk
  })
  const exited = once(child, "exit").then(([code]) => code as number | null)
  return { child, output: () => output, exited }
}

export const stopGroup = async (child: ChildProcess, exited: Promise<unknown>) => {
  try {
    process.kill(-(child.pid as number), "SIGTERM")
  } catch {
    // The group has ended already.
  }
  await exited
}

/**
 * `npm <args>` (`start`, as the README says), until its output includes `ready`; the key and secret
 * it printed (`API key: pk_...`, `API secret: sk_...`), if any.
 */
export const startNpm = async (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, ready: string) => {
  const service = spawnGroup("npm", args, env)
  const started = Date.now()
  while (!service.output().includes(ready)) {
    const code = await Promise.race([service.exited, new Promise((r) => setTimeout(() => r("waiting"), 50))])
    if (code !== "waiting" || Date.now() - started > 30_000) throw new Error(`npm start: ${service.output()}`)
  }
  const key = /^API key: (pk_\S+)$/m.exec(service.output())?.[1]
  const secret = /^API secret: (sk_\S+)$/m.exec(service.output())?.[1]
  return { ...service, printed: key && secret ? { key, secret } : undefined }
}

/** Prints where a step starts, and when (for the log of a slow run). */
const marker = (index: number) => `printf '\\n\uE000step ${index} %s\uE000\\n' "$(date +%s%3N)"`

/** Runs every step in one bash, in order (later blocks use the variables earlier ones set). */
export const walkThrough = async (
  steps: ReadonlyArray<ShellStep>,
  key: { key: string; secret: string },
  env: NodeJS.ProcessEnv,
  /** What else a reader is told to change in a command. */
  rewrite: (commands: string) => string = (commands) => commands,
) => {
  const script = [
    "set -eo pipefail",
    "exec 2>&1",
    ...steps.flatMap((step, index) => [
      marker(index),
      // `pk_...` and `sk_...` stand for the key and secret the service printed at its first start.
      rewrite(step.commands)
        .replaceAll("pk_...", key.key)
        .replaceAll("sk_...", key.secret),
    ]),
    marker(steps.length),
  ].join("\n")
  const before = new Set(readdirSync(root))
  const bash = spawnGroup("bash", ["-c", script], env)
  const code = await Promise.race([bash.exited, new Promise((r) => setTimeout(() => r("timeout"), 150_000))])
  await stopGroup(bash.child, bash.exited) // the webhook receiver the README starts in the background
  // What the commands wrote in the working directory (the README's PDF, the receiver's log).
  // Only the files the commands name: another test may be writing in the root meanwhile.
  const named = (name: string) => steps.some((step) => step.commands.includes(name))
  for (const name of readdirSync(root))
    if (!before.has(name) && named(name)) rmSync(join(root, name), { recursive: true })
  // WALKTHROUGH_LOG=<file> keeps the whole output, each step with its start time, to see where a slow run went.
  if (process.env.WALKTHROUGH_LOG) writeFileSync(process.env.WALKTHROUGH_LOG, bash.output())
  const parts = bash.output().split(/\n?\uE000step (\d+) \d+\uE000\n/)
  const printed = new Map<number, string>()
  for (let i = 1; i < parts.length; i += 2) printed.set(Number(parts[i]), parts[i + 1] ?? "")
  const failures: Array<string> = []
  const reached = Math.max(...printed.keys())
  if (code !== 0 || reached !== steps.length) {
    const step = steps[reached]
    failures.push(`${step?.file}:${step?.line}: exited ${code}, printing:\n${printed.get(reached)}`)
  }
  steps.forEach((step, index) => {
    if (step.expected === undefined || index >= reached) return
    const actual = printed.get(index) ?? ""
    if (!matchesShown(step.expected, actual))
      failures.push(`${step.file}:${step.line}: printed\n${actual}\nwhere the text shows\n${step.expected}`)
  })
  return failures
}
