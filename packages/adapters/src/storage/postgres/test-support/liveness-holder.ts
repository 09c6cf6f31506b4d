/**
 * A process for the liveness test: opens a Postgres liveness session on the server named by its
 * first argument, prints its id as one line, then waits to be killed.
 */
import { postgresLiveness } from "../postgres-liveness.ts"

const [connectionString] = process.argv.slice(2)
if (connectionString === undefined) throw new Error("usage: liveness-holder <postgres url>")
const processes = postgresLiveness({ connectionString, connectionTimeoutMs: 10_000 })
process.stdout.write(`${await processes.self()}\n`)
setInterval(() => {}, 60_000)
