import { Schema } from "effect"
import { required, Text } from "./fields.ts"

/** What an API key may do: `read` keys are refused every write. */
export const ApiKeyScope = Schema.Literal("read", "write")
export type ApiKeyScope = typeof ApiKeyScope.Type

/** Body of `POST /api/v1/sessions`: an API key and its secret. */
export const SessionCreate = Schema.Struct({
  api_key: required(Text, "API key is required"),
  api_secret: required(Text, "API secret is required"),
}).annotations({ identifier: "SessionCreate" })
export type SessionCreate = typeof SessionCreate.Type

/** A bearer token, as `POST /api/v1/sessions` returns it. */
export const Session = Schema.Struct({
  access_token: Schema.String,
  token_type: Schema.Literal("Bearer"),
  expires_at: Schema.String,
  expires_in: Schema.Number.annotations({ description: "seconds" }),
}).annotations({ identifier: "Session" })
export type Session = typeof Session.Type
