// Every name of the main entries a program embedding the engine (or calling it over HTTP) uses, so
// that `tsc --listFilesOnly` lists each declaration they load: none of effect's, Kysely's or
// xstate's, which only the `/effect`, `/kysely` and `/postgres` subpaths name (docs/decisions.md,
// "Public types").
export type * as adapters from "@payments-engine/adapters"
export type * as client from "@payments-engine/client"
export type * as core from "@payments-engine/core"
