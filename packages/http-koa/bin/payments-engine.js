#!/usr/bin/env node
// The `payments-engine` command: Node 20 cannot run TypeScript, so load tsx first, then the CLI.
import { register } from "tsx/esm/api"

register()
const { runCli } = await import("../src/cli.ts")
process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
})
