#!/usr/bin/env node
// The `payments-engine` command. Installed from the registry, it runs the JavaScript build with
// plain Node. In the repository (the TypeScript sources beside it, maybe no build), it runs the
// sources as `npm start` does: tsx, and the "source" export condition so that our packages
// resolve to their `src/*.ts` rather than a build that may be stale or missing.
import { existsSync, readFileSync } from "node:fs"
import { register } from "node:module"

const sources = new URL("../src/service/cli.ts", import.meta.url)
const loadCli = async () => {
  if (!existsSync(sources)) return import("../dist/service/cli.js")
  register(
    "data:text/javascript,export const resolve = (specifier, context, next) => next(specifier, { ...context, conditions: ['source', ...context.conditions] })",
  )
  const tsx = await import("tsx/esm/api")
  tsx.register()
  return import(sources.href)
}

const args = process.argv.slice(2)
if (args[0] === "--version" || args[0] === "-v") {
  // Answered before anything else loads: the engine's graph (and tsx in the repository) costs
  // seconds of CPU, which asking for the version should not.
  const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
  process.stdout.write(`${version}\n`)
} else {
  const { runCli } = await loadCli()
  process.exitCode = await runCli(args, {
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  })
}
