// The types of `model/session.ts`, written out (docs/decisions.md, "Public types").

/** What an API key may do: `read` keys are refused every write. */
export type ApiKeyScope = "read" | "write"

/** Body of `POST /api/v1/sessions`: an API key and its secret. */
export interface SessionCreate {
  readonly api_key: string
  readonly api_secret: string
}

/** Body of `POST /api/v1/sessions`, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface SessionCreateBody {
  readonly api_key: string
  readonly api_secret: string
}

/** A bearer token, as `POST /api/v1/sessions` returns it. */
export interface Session {
  readonly access_token: string
  readonly token_type: "Bearer"
  readonly expires_at: string
  /** Seconds. */
  readonly expires_in: number
}
