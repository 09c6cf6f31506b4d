import { spawn } from "node:child_process"
import { once } from "node:events"
import { fileURLToPath } from "node:url"
import { expect, it, onTestFinished } from "vitest"

const exampleDirectory = fileURLToPath(new URL("..", import.meta.url))

it("serves until SIGTERM, then closes and ends by itself: nothing is left open", async () => {
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", "src/main.ts"], {
    cwd: exampleDirectory,
    env: { ...process.env, PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  })
  const ended = once(child, "exit")
  // A process that does not end fails the test by its timeout: do not leave it behind.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  })
  let output = ""
  for await (const chunk of child.stdout) {
    output += String(chunk)
    if (output.includes("API secret: ")) break
  }
  const url = /payments API: (\S+)/.exec(output)?.[1]
  expect(url).toBeDefined()
  const session = await fetch(`${url}/sessions`, {
    method: "POST",
    body: "{}",
    headers: { "content-type": "application/json" },
  })
  expect(session.status).toBe(400)

  child.kill("SIGTERM")
  // main.ts never calls process.exit: the process ends only once nothing is left open.
  expect(await ended).toEqual([0, null])
})
