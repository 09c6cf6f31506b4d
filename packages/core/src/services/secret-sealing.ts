import { Effect } from "effect"
import type { ServerSecret } from "../ports/server-secret.ts"
import { deriveSecretBoxKey, openSecret, type SecretBoxKey, sealSecret } from "../rules/secret-box.ts"

/*
 * Sealing secrets the engine shows once and must not keep readable (a webhook endpoint's signing
 * secret, and the replay of the answer that showed it), under the server secret's sealing key.
 * Kept here so that no service imports another.
 */

const sealKeys = new WeakMap<ServerSecret, Promise<SecretBoxKey>>()

/** The sealing key of a server secret, derived once; asked again after a failure (its storage was down). */
const sealKeyOf = (secret: ServerSecret): Promise<SecretBoxKey> => {
  let derived = sealKeys.get(secret)
  if (derived === undefined) {
    derived = secret
      .read()
      .then(deriveSecretBoxKey)
      .catch((error: unknown) => {
        sealKeys.delete(secret)
        throw error
      })
    sealKeys.set(secret, derived)
  }
  return derived
}

/** `secret` sealed for the row `boundTo` (see `rules/secret-box.ts`). */
export const sealed = (serverSecret: ServerSecret, boundTo: string, secret: string): Effect.Effect<string> =>
  Effect.promise(async () => sealSecret(await sealKeyOf(serverSecret), boundTo, secret))

/** The secret of a sealed text, or undefined when it does not open (another key, another row, altered). */
export const unsealed = (
  serverSecret: ServerSecret,
  boundTo: string,
  stored: string,
): Effect.Effect<string | undefined> =>
  Effect.promise(async () => openSecret(await sealKeyOf(serverSecret), boundTo, stored))
