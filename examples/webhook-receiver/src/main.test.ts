import { spawn } from "node:child_process"
import { once } from "node:events"
import { connect } from "node:net"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const repositoryRoot = fileURLToPath(new URL("../../..", import.meta.url))

/** Whether nothing listens on `port` any more. */
const refusesConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resolve(false)
    })
    socket.once("error", () => resolve(true))
  })

/**
 * Starts the receiver as the README says (`npm start -w ...`), sends `signal` to npm's process
 * only, and answers the port it listened on once npm is gone and every process holding its output
 * (the shell, node) has ended too.
 */
const startThenSignalNpm = async (signal: NodeJS.Signals) => {
  const npm = spawn("npm", ["start", "--silent", "-w", "@payments-engine/example-webhook-receiver"], {
    cwd: repositoryRoot,
    env: { ...process.env, PORT: "0", WEBHOOK_SECRET: "whsec_receiverexample0123456789abcd" },
    stdio: ["ignore", "pipe", "inherit"],
  })
  const lines = createInterface({ input: npm.stdout })
  const outputEnded = once(lines, "close")
  try {
    const [line] = (await once(lines, "line")) as [string]
    const port = Number(/localhost:(\d+)\//.exec(line)?.[1])
    expect(port).toBeGreaterThan(0)
    npm.kill(signal)
    await outputEnded
    return port
  } finally {
    npm.kill("SIGKILL")
  }
}

describe("the webhook receiver started through npm", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("stops listening when npm gets %s", async (signal) => {
    const port = await startThenSignalNpm(signal)
    expect(await refusesConnections(port)).toBe(true)
  })
})
