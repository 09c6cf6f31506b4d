import type { Clock } from "../ports/clock.ts"
import type { Ids } from "../ports/ids.ts"
import type { SecretHasher } from "../ports/secret-hasher.ts"
import type { Storage } from "../ports/storage/index.ts"

/** The ports an engine is built from. */
export interface EnginePorts {
  readonly storage: Storage
  readonly clock: Clock
  readonly ids: Ids
  readonly hasher: SecretHasher
}

/** The clock's now as a storage timestamp. */
export const nowIso = (ports: Pick<EnginePorts, "clock">): string => ports.clock.now().toISOString()
