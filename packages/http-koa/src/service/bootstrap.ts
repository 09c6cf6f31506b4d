import type { Engine } from "@payments-engine/core"
import type { ServiceConfig } from "./config.ts"

/** The workspace of the bootstrap key. */
export const bootstrapWorkspace = "sandbox"

/**
 * Makes sure someone can call the API. With `PAYMENTS_API_KEY` and `PAYMENTS_API_SECRET` set, that
 * key is created (workspace `sandbox`, scope write) unless it exists. Otherwise, on a database
 * without any key, a key is generated and written once as two lines, `API key: <key>` and
 * `API secret: <secret>`. Returns whether a key was created.
 *
 * @example
 * await bootstrapApiKey(engine, config.bootstrapKey, (line) => process.stdout.write(`${line}\n`))
 */
export const bootstrapApiKey = async (
  engine: Engine,
  bootstrapKey: ServiceConfig["bootstrapKey"],
  print: (line: string) => void,
): Promise<boolean> => {
  if (bootstrapKey !== undefined) {
    if (await engine.access.apiKeyExists(bootstrapKey.key)) return false
    await engine.access.createApiKey({
      workspace: bootstrapWorkspace,
      scope: "write",
      key: bootstrapKey.key,
      secret: bootstrapKey.secret,
    })
    return true
  }
  if (await engine.access.hasApiKeys()) return false
  const issued = await engine.access.createApiKey({ workspace: bootstrapWorkspace, scope: "write" })
  print(`API key: ${issued.api_key}`)
  print(`API secret: ${issued.api_secret}`)
  return true
}
