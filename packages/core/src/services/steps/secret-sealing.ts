import { Effect } from "effect"
import type { ServerSecret } from "../../ports/server-secret.ts"
import {
  deriveSecretBoxKey,
  openSecret,
  type SecretBoxKey,
  type SecretBoxPurpose,
  sealSecret,
} from "../../rules/secret-box.ts"

/*
 * Sealing secrets the engine shows once and must not keep readable (a webhook endpoint's signing
 * secret, and the replay of the answer that showed it; a person's tax id), under the server
 * secret's sealing key of each purpose.
 * Kept here so that no service imports another.
 */

const sealKeys = new WeakMap<ServerSecret, Map<SecretBoxPurpose, Promise<SecretBoxKey>>>()

/** The sealing key of a server secret for `purpose`, derived once; asked again after a failure (its storage was down). */
const sealKeyOf = (secret: ServerSecret, purpose: SecretBoxPurpose): Promise<SecretBoxKey> => {
  let keys = sealKeys.get(secret)
  if (keys === undefined) {
    keys = new Map()
    sealKeys.set(secret, keys)
  }
  const known = keys
  let derived = known.get(purpose)
  if (derived === undefined) {
    derived = secret
      .read()
      .then((text) => deriveSecretBoxKey(text, purpose))
      .catch((error: unknown) => {
        known.delete(purpose)
        throw error
      })
    known.set(purpose, derived)
  }
  return derived
}

/** `secret` sealed for the row `boundTo` under the key of `purpose` (see `rules/secret-box.ts`). */
export const sealed = (
  serverSecret: ServerSecret,
  boundTo: string,
  secret: string,
  purpose: SecretBoxPurpose = "webhook-endpoint-secret",
): Effect.Effect<string> =>
  Effect.promise(async () => sealSecret(await sealKeyOf(serverSecret, purpose), boundTo, secret))

/** The secret of a sealed text, or undefined when it does not open (another key, another row, altered). */
export const unsealed = (
  serverSecret: ServerSecret,
  boundTo: string,
  stored: string,
  purpose: SecretBoxPurpose = "webhook-endpoint-secret",
): Effect.Effect<string | undefined> =>
  Effect.promise(async () => openSecret(await sealKeyOf(serverSecret, purpose), boundTo, stored))
