import { Effect } from "effect"
import { ProviderFailure } from "../errors.ts"

/**
 * Calls a provider outside any storage transaction. A rejection becomes a `provider_failure` on `base` with
 * `message`, never a defect with the provider's internals in it.
 */
export const providerCall = <A>(message: string, call: () => Promise<A>): Effect.Effect<A, ProviderFailure> =>
  Effect.tryPromise({ try: call, catch: () => new ProviderFailure({ field: "base", message }) })
