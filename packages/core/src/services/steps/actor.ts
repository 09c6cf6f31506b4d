import { Effect } from "effect"
import { Forbidden, messages } from "../../errors.ts"
import type { Actor } from "../../model/types/actor.ts"

export type { Actor } from "../../model/types/actor.ts"

/** Fails with `forbidden` unless the actor may change things. */
export const requireWrite = (actor: Actor): Effect.Effect<void, Forbidden> =>
  actor.scope === "write" ? Effect.void : Effect.fail(new Forbidden({ field: "base", message: messages.readOnlyKey }))
