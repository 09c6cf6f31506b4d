import { Effect } from "effect"
import { Invalid } from "../../errors.ts"

/** A workspace name as given by an operator, trimmed; 1 to 100 characters. */
export const workspaceName = (name: string): Effect.Effect<string, Invalid> => {
  const trimmed = name.trim()
  return trimmed.length >= 1 && trimmed.length <= 100
    ? Effect.succeed(trimmed)
    : Effect.fail(Invalid.rule("workspace", "must be 1 to 100 characters"))
}
