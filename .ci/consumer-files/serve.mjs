// Starts the installed service with plain Node on in-memory SQLite, as `npm start` does in the
// repository, asks it for its OpenAPI document and the API reference's files over HTTP, and creates and lists a company with the
// typed client.
import { createPaymentsClient, dataOf } from "@payments-engine/client"
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
  // The API reference's Swagger UI comes with the package's build, not from swagger-ui-dist.
  for (const file of ["/docs/swagger-ui-bundle.js", "/docs/swagger-ui.css"]) {
    const asset = await fetch(`${service.url}${file}`)
    const size = (await asset.text()).length
    console.log(`GET ${file}`, asset.status, size, "characters")
    if (asset.status !== 200 || size < 10_000) process.exitCode = 1
  }
  const key = await service.engine.access.createApiKey({ workspace: "consumer", scope: "write" })
  const client = createPaymentsClient({ baseUrl: service.url, apiKey: key.api_key, apiSecret: key.api_secret })
  const body = { name: "Consumer Ltd", country: "GB", default_currency: "GBP" }
  await dataOf(client.POST("/api/v1/companies", { body }))
  const { data } = await dataOf(client.GET("/api/v1/companies"))
  console.log(
    "typed client: companies",
    data.map((company) => company.name),
  )
  if (data.length !== 1 || data[0].name !== body.name) process.exitCode = 1
} finally {
  await service.close()
}
