import { Schema } from "effect"
import { required, Text } from "./fields.ts"
import type * as Types from "./types/session.ts"

export * from "./types/session.ts"

/** What an API key may do: `read` keys are refused every write. */
export const ApiKeyScope = Schema.Literal("read", "write")
export type ApiKeyScope = Types.ApiKeyScope

const sessionCreateFields = {
  api_key: required(Text, "API key is required"),
  api_secret: required(Text, "API secret is required"),
}

/** The Schema of {@link SessionCreate}, named so that declarations refer to it instead of copying it. */
export interface SessionCreateSchema extends Schema.Struct<typeof sessionCreateFields> {}
/** Body of `POST /api/v1/sessions`: an API key and its secret. */
export const SessionCreate: SessionCreateSchema = Schema.Struct(sessionCreateFields).annotations({
  identifier: "SessionCreate",
})
export type SessionCreate = Types.SessionCreate

const sessionFields = {
  access_token: Schema.String,
  token_type: Schema.Literal("Bearer"),
  expires_at: Schema.String,
  expires_in: Schema.Number.annotations({ description: "seconds" }),
}

/** The Schema of {@link Session}, named so that declarations refer to it instead of copying it. */
export interface SessionSchema extends Schema.Struct<typeof sessionFields> {}
/** A bearer token, as `POST /api/v1/sessions` returns it. */
export const Session: SessionSchema = Schema.Struct(sessionFields).annotations({ identifier: "Session" })
export type Session = Types.Session
