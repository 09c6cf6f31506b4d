import { startServer } from "./server.ts"

const server = await startServer({ port: Number(process.env.PORT ?? 3000) })
process.stdout.write(`payments API: ${server.url}/payments/api/v1\n`)
process.stdout.write(`API key: ${server.apiKey.api_key}\nAPI secret: ${server.apiKey.api_secret}\n`)
// No process.exit: once the server, the job runner and the storage are closed, nothing keeps Node running.
const stop = () => void server.close()
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
