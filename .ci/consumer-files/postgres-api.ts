// Uses the /postgres subpaths as a TypeScript consumer on Postgres would, once it has installed pg
// and graphile-worker (which brings @types/pg): the consumer's strict tsc checks their declarations.

import {
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  randomIds,
  scryptHasher,
  systemClock,
} from "@payments-engine/adapters"
import {
  type GraphileJobsOptions,
  graphileWorkerSchema,
  openPostgresRateLimitStore,
  openPostgresStorage,
  type PostgresStorageOptions,
  rateLimitSchema,
} from "@payments-engine/adapters/postgres"
import { createEngine, type Engine } from "@payments-engine/core"
import { bearerTokens, createApp, createServiceEngine } from "@payments-engine/http-koa"
import pg from "pg"

export const options: PostgresStorageOptions = { connectionString: "postgres://localhost/payments", schema: "payments" }

export const embed = async (): Promise<Engine> =>
  createEngine({
    storage: await openPostgresStorage(options),
    clock: systemClock,
    ids: randomIds(),
    hasher: scryptHasher(),
    serverSecret: { read: async () => "a".repeat(32) },
    paymentProvider: createSandboxPaymentProvider(),
    bankLinker: createSandboxBankLinker(),
  })

export const jobs: GraphileJobsOptions = {
  pool: new pg.Pool({ connectionString: options.connectionString }),
  workerSchema: graphileWorkerSchema(options.schema),
}

export const serve = async () => {
  const engine = createServiceEngine({
    storage: await openPostgresStorage(options),
    serverSecret: { read: async () => "s" },
  })
  const store = await openPostgresRateLimitStore({
    connectionString: options.connectionString,
    schema: rateLimitSchema(options.schema),
  })
  const tokens = bearerTokens({ secret: "a".repeat(32), confirm: (claims) => engine.access.tokenActor(claims) })
  return createApp({ engine, tokens, rateLimits: { store } })
}

// @ts-expect-error connectionString must be a string
export const refused = () => openPostgresStorage({ connectionString: 5432 })
