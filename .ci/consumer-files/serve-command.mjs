// Runs the installed command as an operator would, `npx payments-engine serve` on a SQLite file:
// it must serve, then stop cleanly when SIGTERM is sent to the npx process (npm hands the signal to
// its shell, which does not pass it on; the service must notice that its launcher has gone).
import { spawn } from "node:child_process"
import { once } from "node:events"
import { connect } from "node:net"
import { createInterface } from "node:readline"

const fail = (message) => {
  console.error(message)
  process.exit(1)
}
const command = spawn("npx", ["payments-engine", "serve"], {
  env: { ...process.env, PORT: "0", LOG_LEVEL: "info", DATABASE_URL: "sqlite:./serve-command.sqlite" },
  stdio: ["ignore", "pipe", "inherit"],
})
const lines = []
const reader = createInterface({ input: command.stdout })
const outputEnded = once(reader, "close")
const listening = new Promise((resolve) =>
  reader.on("line", (line) => {
    lines.push(line)
    if (line.includes('"msg":"listening"')) resolve(JSON.parse(line))
  }),
)
const giveUp = setTimeout(() => fail(`no clean stop within 60 s; output:\n${lines.join("\n")}`), 60_000)
let started = false
outputEnded.then(() => started || fail(`ended before listening; output:\n${lines.join("\n")}`))
const { url, port } = await listening
started = true
const health = await fetch(`${url}/health`)
console.log("GET /health", health.status)
if (health.status !== 200) fail("the service does not answer /health")
command.kill("SIGTERM")
await outputEnded
clearTimeout(giveUp)
console.log(lines.filter((line) => /"msg":"(shutting down|stopped)"/.test(line)).join("\n"))
if (!lines.some((line) => line.includes('"msg":"stopped"'))) fail("the service did not log stopped")
const refused = await new Promise((resolve) => {
  const socket = connect(port, "127.0.0.1")
  socket.once("connect", () => {
    socket.destroy()
    resolve(false)
  })
  socket.once("error", () => resolve(true))
})
if (!refused) fail(`something still listens on port ${port}`)
