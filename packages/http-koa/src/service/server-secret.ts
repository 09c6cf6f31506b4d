import { randomBytes } from "node:crypto"
import { link, mkdir, open, readFile, rm } from "node:fs/promises"
import { dirname } from "node:path"
import type { Storage } from "@payments-engine/core"
import type { ServiceConfig } from "./config.ts"
import { StartupError } from "./startup-error.ts"

/**
 * The setting where sandbox mode kept its generated secret before it moved to a file. A database
 * reader could derive every key from it (fingerprints, sealed webhook secrets and tax ids), so it
 * is read once to move it out, then erased.
 */
export const legacySecretSetting = "http.jwt_secret"

/** Permissions of the secret's file: its owner reads and writes, nobody else anything. */
export const serverSecretFileMode = 0o600

const hasCode = (error: unknown, code: string) =>
  typeof error === "object" && error !== null && "code" in error && error.code === code

/** The secret a file holds, or undefined when there is no such file. */
const readSecretFile = async (path: string): Promise<string | undefined> => {
  let text: string
  try {
    text = await readFile(path, "utf8")
  } catch (error) {
    if (hasCode(error, "ENOENT")) return undefined
    throw new StartupError(`Cannot read the server secret's file ${path}: ${(error as Error).message}`, {
      cause: error,
    })
  }
  const secret = text.trim()
  if (secret.length < 32) {
    throw new StartupError(
      `The server secret's file ${path} holds fewer than 32 characters: remove it to have one generated, or set PAYMENTS_JWT_SECRET`,
    )
  }
  return secret
}

/**
 * Creates the file holding `secret` unless it exists, and returns the secret the file then holds.
 * The secret is written whole to a temporary file of mode 0600 and hard-linked into place: a link
 * fails where a file exists, so two processes creating it together both end up reading the one
 * that was linked first, and no process ever reads a half-written file.
 */
const createSecretFile = async (path: string, secret: string): Promise<string> => {
  try {
    return await linkedSecretFile(path, secret)
  } catch (error) {
    if (error instanceof StartupError) throw error
    throw new StartupError(`Cannot create the server secret's file ${path}: ${(error as Error).message}`, {
      cause: error,
    })
  }
}

const linkedSecretFile = async (path: string, secret: string): Promise<string> => {
  await mkdir(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`
  const handle = await open(temporary, "wx", serverSecretFileMode)
  try {
    await handle.writeFile(`${secret}\n`)
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await link(temporary, path)
  } catch (error) {
    if (!hasCode(error, "EEXIST")) throw error
  } finally {
    await rm(temporary, { force: true })
  }
  const stored = await readSecretFile(path)
  if (stored === undefined) throw new StartupError(`The server secret's file ${path} vanished as it was created`)
  return stored
}

const generatedSecret = () => randomBytes(32).toString("base64url")

/**
 * Resolves the server secret, which signs bearer tokens and from which the engine derives its
 * keys (idempotency fingerprints, sealed webhook secrets and tax ids): `PAYMENTS_JWT_SECRET`, or
 * (sandbox mode, where {@link loadConfig} lets it be unset) the secret of
 * `config.serverSecretFile`, generated at the first start. Never the database: a database reader
 * must not be able to derive a key. With an in-memory database (no file) a fresh secret is
 * generated for the process.
 *
 * A secret an earlier version kept in the database ({@link legacySecretSetting}) is moved: written
 * to the file (so everything sealed under it still opens) and erased from the database. When the
 * file already holds another secret, the start fails rather than lose what the database's secret
 * sealed. Safe when processes start together: the file is created atomically, and the erasure is
 * idempotent.
 *
 * Call it once per process and keep the promise.
 *
 * @example
 * const secret = await serverSecretFor(config, storage)
 */
export const serverSecretFor = async (
  config: Pick<ServiceConfig, "jwtSecret" | "serverSecretFile">,
  storage: Storage,
): Promise<string> => {
  const file = config.serverSecretFile
  const legacy = await storage.transaction((tx) => tx.settings.get(legacySecretSetting))
  if (legacy !== undefined && file !== undefined) {
    const kept = await createSecretFile(file, legacy)
    if (kept !== legacy) {
      throw new StartupError(
        `The database keeps a generated secret (setting ${legacySecretSetting}) that differs from the one in ${file}: set PAYMENTS_SECRET_FILE to a file of this database's own, where it is moved at the next start`,
      )
    }
    await storage.transaction((tx) => tx.settings.remove(legacySecretSetting))
  }
  if (config.jwtSecret !== undefined) return config.jwtSecret
  if (file === undefined) return legacy ?? generatedSecret()
  return (await readSecretFile(file)) ?? (await createSecretFile(file, generatedSecret()))
}
