// Starts the installed service with plain Node on in-memory SQLite, as `npm start` does in the
// repository, and asks it for its OpenAPI document over HTTP.
import { createLogger, loadConfig, startService } from "@payments-engine/http-koa"

const service = await startService(loadConfig({ PORT: "0", DATABASE_URL: "sqlite::memory:" }), {
  logger: createLogger({ level: "warn" }),
  print: () => {},
})
try {
  const response = await fetch(`${service.url}/openapi.json`)
  const document = await response.json()
  console.log("GET /openapi.json", response.status, document.openapi, Object.keys(document.paths).length, "paths")
  if (response.status !== 200 || !document.openapi?.startsWith("3.")) process.exitCode = 1
} finally {
  await service.close()
}
