import {
  type DatabaseIntrospector,
  type Kysely,
  type MigrationProvider,
  type MigrationResultSet,
  Migrator,
  sql,
} from "kysely"
import { assertSupportedDialect, type StorageDialect } from "../storage-dialect.ts"
import { initialSchema } from "./0001-initial.ts"
import { moneyMovementSchema } from "./0002-money-movement.ts"
import { featuresSchema } from "./0003-features.ts"
import { jobKeysSchema } from "./0004-job-keys.ts"
import { keyLifecycleSchema } from "./0005-key-lifecycle.ts"
import { keyedFingerprintsSchema } from "./0006-keyed-fingerprints.ts"
import { testClocksSchema } from "./0007-test-clocks.ts"
import { keyedJobsIndexSchema } from "./0008-keyed-jobs-index.ts"
import { paymentBatchesSchema } from "./0009-payment-batches.ts"
import { processingPaymentsIndexSchema } from "./0010-processing-payments-index.ts"
import { webhookEndpointsSchema } from "./0011-webhook-endpoints.ts"
import { webhookDeliveriesSchema } from "./0012-webhook-deliveries.ts"
import { entityOnboardingSchema } from "./0013-entity-onboarding.ts"
import { onboardingAttachmentsSchema } from "./0014-onboarding-attachments.ts"
import { webhookDeliveryLanesSchema } from "./0015-webhook-delivery-lanes.ts"
import { trustedDomainsSchema } from "./0016-trusted-domains.ts"
import { usedHostedPageTokensSchema } from "./0017-used-hosted-page-tokens.ts"
import { fundingMandatesSchema } from "./0018-funding-mandates.ts"
import { jobQueuesSchema } from "./0019-job-queues.ts"
import { idempotencyJournalSchema } from "./0020-idempotency-journal.ts"
import { endpointCircuitsSchema } from "./0021-endpoint-circuits.ts"
import { workspaceBrandingsSchema } from "./0022-workspace-brandings.ts"
import { eventsByWorkspaceSchema } from "./0023-events-by-workspace.ts"
import { webhookOperationsSchema } from "./0024-webhook-operations.ts"
import type { MigrationStep } from "./migration-step.ts"

/**
 * Every migration of the storage, by name, in order. One set for every dialect: the dialect gives
 * the text type and says whether graphile-worker's table is needed. The names are what `kysely_migration` records, so a database migrated
 * before still opens: never rename one; add the next as `0012_...` in a file `0012-....ts`.
 *
 * @example
 * const migrator = new Migrator({ db, provider: storageMigrations(sqliteDialect) })
 */
export const storageMigrations = (dialect: StorageDialect): MigrationProvider => ({
  getMigrations: async () => ({
    "0001_initial": initialSchema(dialect),
    "0002_money_movement": moneyMovementSchema(dialect),
    "0003_features": featuresSchema(dialect),
    "0004_job_keys": jobKeysSchema(dialect),
    "0005_key_lifecycle": keyLifecycleSchema(dialect),
    "0006_keyed_fingerprints": keyedFingerprintsSchema(),
    "0007_test_clocks": testClocksSchema(dialect),
    "0008_keyed_jobs_index": keyedJobsIndexSchema(),
    "0009_payment_batches": paymentBatchesSchema(dialect),
    "0010_processing_payments_index": processingPaymentsIndexSchema(),
    "0011_webhook_endpoints": webhookEndpointsSchema(dialect),
    "0012_webhook_deliveries": webhookDeliveriesSchema(dialect),
    "0013_entity_onboarding": entityOnboardingSchema(dialect),
    "0014_onboarding_attachments": onboardingAttachmentsSchema(dialect),
    "0015_webhook_delivery_lanes": webhookDeliveryLanesSchema(dialect),
    "0016_trusted_domains": trustedDomainsSchema(dialect),
    "0017_used_hosted_page_tokens": usedHostedPageTokensSchema(dialect),
    "0018_funding_mandates": fundingMandatesSchema(dialect),
    "0019_job_queues": jobQueuesSchema(dialect),
    "0020_idempotency_journal": idempotencyJournalSchema(dialect),
    "0021_endpoint_circuits": endpointCircuitsSchema(dialect),
    "0022_workspace_brandings": workspaceBrandingsSchema(dialect),
    "0023_events_by_workspace": eventsByWorkspaceSchema(),
    "0024_webhook_operations": webhookOperationsSchema(dialect),
  }),
})

/** Options of {@link migrateStorage}. */
export interface MigrateStorageOptions {
  /** What the database's SQL may rely on: {@link sqliteDialect} or {@link postgresDialect}. */
  readonly dialect: StorageDialect
  /**
   * Schema that holds Kysely's migration bookkeeping tables, where the dialect has schemas
   * (`supportsSchemas`). Defaults to the connection's `current_schema()`, the schema the
   * storage's own tables are created in.
   */
  readonly migrationTableSchema?: string
  /**
   * Told of each step as it ends, for a log: a first start runs every step, which can take a
   * while, and should not look like a hang. The steps of one run commit together, after the last.
   */
  readonly onStep?: (step: MigrationStep) => void
}

/** The provider's migrations, each telling `onStep` when its `up` has run. */
const timedSteps = (provider: MigrationProvider, onStep: (step: MigrationStep) => void): MigrationProvider => ({
  getMigrations: async () =>
    Object.fromEntries(
      Object.entries(await provider.getMigrations()).map(([name, migration]) => [
        name,
        {
          ...migration,
          up: async (db: Kysely<unknown>) => {
            const started = performance.now()
            await migration.up(db)
            onStep({ name, durationMs: Math.round(performance.now() - started) })
          },
        },
      ]),
    ),
})

/** Kysely's migrator over the storage's migration table, in the connection's schema where the dialect has schemas. */
const storageMigrator = async <DB>(
  handle: Kysely<DB>,
  options: Pick<MigrateStorageOptions, "dialect" | "migrationTableSchema">,
  provider: MigrationProvider,
): Promise<Migrator> => {
  const db = handle as unknown as Kysely<unknown>
  const migrationTableSchema =
    options.migrationTableSchema ?? (options.dialect.supportsSchemas ? await currentSchema(db) : undefined)
  return new Migrator({
    db: migrationTableSchema === undefined ? db : introspectingOneSchema(db, migrationTableSchema),
    provider,
    // Without a schema, Kysely's check for its own tables looks at every schema, and a second
    // storage in another schema of the same database would think it had been migrated already.
    ...(migrationTableSchema === undefined ? {} : { migrationTableSchema }),
  })
}

/**
 * Brings the database up to the latest migration; running it again changes nothing. Rejects with
 * the migration's error when one fails, and before any when the dialect lacks a feature the
 * storage assumes.
 *
 * @example
 * await migrateStorage(db, { dialect: postgresDialect })
 */
export const migrateStorage = async <DB>(handle: Kysely<DB>, options: MigrateStorageOptions): Promise<void> => {
  assertSupportedDialect(options.dialect)
  const steps = storageMigrations(options.dialect)
  const migrator = await storageMigrator(
    handle,
    options,
    options.onStep === undefined ? steps : timedSteps(steps, options.onStep),
  )
  const outcome: MigrationResultSet = await migrator.migrateToLatest()
  if (outcome.error !== undefined) {
    const failed = outcome.results?.find((result) => result.status === "Error")
    const cause = outcome.error
    throw new Error(
      `storage migration ${failed?.migrationName ?? "set-up"} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    )
  }
}

/**
 * The names of the storage's migrations the database has not recorded as run, in order; none once
 * `migrateStorage` ran. Reads only, creating nothing (a database without Kysely's tables has every
 * step pending), so a readiness check may ask it of a live database; rejects when the database
 * cannot be read.
 *
 * @example
 * if ((await pendingStorageMigrations(db, { dialect: sqliteDialect })).length > 0) console.log("not migrated")
 */
export const pendingStorageMigrations = async <DB>(
  handle: Kysely<DB>,
  options: Pick<MigrateStorageOptions, "dialect" | "migrationTableSchema">,
): Promise<ReadonlyArray<string>> => {
  const migrator = await storageMigrator(handle, options, storageMigrations(options.dialect))
  return (await migrator.getMigrations()).filter((step) => step.executedAt === undefined).map((step) => step.name)
}

/**
 * The database handle with an introspector that lists the tables of one schema only. Kysely's
 * migrator lists every table of the database to find its own, and Postgres's catalogue functions
 * fail on a table another process is creating or dropping in another schema at that moment (a
 * second storage, graphile-worker's migrations), which failed migrations at random.
 */
const introspectingOneSchema = (db: Kysely<unknown>, schema: string): Kysely<unknown> => {
  const introspection: DatabaseIntrospector = {
    getSchemas: async () =>
      (await sql<{ name: string }>`select nspname as name from pg_namespace`.execute(db)).rows.map((row) => ({
        name: row.name,
      })),
    getTables: async () =>
      (
        await sql<{ name: string; type: string }>`select table_name as name, table_type as type
          from information_schema.tables where table_schema = ${schema}`.execute(db)
      ).rows.map((row) => ({ name: row.name, schema, isView: row.type === "VIEW", columns: [] })),
    getMetadata: async () => ({ tables: await introspection.getTables() }),
  }
  return new Proxy(db, {
    get: (target, property) => {
      if (property === "introspection") return introspection
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === "function" ? value.bind(target) : value
    },
  })
}

const currentSchema = async (db: Kysely<unknown>): Promise<string> => {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)
  const schema = rows[0]?.schema
  if (schema === null || schema === undefined) {
    throw new Error("storage migration: the connection has no current schema (does the search_path schema exist?)")
  }
  return schema
}
