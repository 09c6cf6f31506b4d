import type { Migration } from "kysely"
import type { StorageDialect } from "../storage-dialect.ts"
import { columnHelpers, createIndex, createTable } from "./column-helpers.ts"

/** The first schema: workspaces, API keys, companies, entities, recipients, idempotency, settings. */
export const initialSchema = (dialect: StorageDialect): Migration => ({
  async up(db) {
    const { key, text, optionalText, optionalInteger, flag } = columnHelpers(dialect)

    await createTable(db, "workspaces", { id: key, name: text, created_at: text }, (t) =>
      t.addUniqueConstraint("workspaces_name_key", ["name"]),
    )

    await createTable(
      db,
      "api_keys",
      { id: key, workspace_id: text, key: text, secret_hash: text, scope: text, created_at: text },
      (t) =>
        t
          .addUniqueConstraint("api_keys_key_key", ["key"])
          .addForeignKeyConstraint("api_keys_workspace_id_fkey", ["workspace_id"], "workspaces", ["id"]),
    )
    await createIndex(db, "api_keys_by_workspace", "api_keys", ["workspace_id", "id"])

    await createTable(db, "companies", {
      id: key,
      workspace_id: text,
      name: text,
      country: text,
      default_currency: text,
      role: text,
      created_at: text,
      updated_at: text,
      deleted_at: optionalText,
    })
    await createIndex(db, "companies_live_by_workspace", "companies", ["workspace_id", "id"], { liveOnly: true })

    await createTable(
      db,
      "entities",
      {
        id: key,
        company_id: text,
        name: text,
        country_alpha2: text,
        payment_integration_active: flag,
        created_at: text,
        updated_at: text,
        deleted_at: optionalText,
      },
      (t) => t.addForeignKeyConstraint("entities_company_id_fkey", ["company_id"], "companies", ["id"]),
    )
    // At most one live entity per company: what `insertIfNoneActive` relies on under concurrency.
    await createIndex(db, "entities_one_live_per_company", "entities", ["company_id"], { unique: true, liveOnly: true })
    await createIndex(db, "entities_by_company", "entities", ["company_id", "id"])

    await createTable(
      db,
      "recipients",
      {
        id: key,
        company_id: text,
        name: text,
        email: optionalText,
        created_at: text,
        updated_at: text,
        deleted_at: optionalText,
      },
      (t) => t.addForeignKeyConstraint("recipients_company_id_fkey", ["company_id"], "companies", ["id"]),
    )
    await createIndex(db, "recipients_live_by_company", "recipients", ["company_id", "id"], { liveOnly: true })

    await createTable(
      db,
      "idempotency_records",
      {
        workspace_id: text,
        key: text,
        fingerprint: text,
        response_status: optionalInteger,
        response_body: optionalText,
        created_at: text,
        expires_at: text,
        locked_until: optionalText,
      },
      (t) => t.addPrimaryKeyConstraint("idempotency_records_pkey", ["workspace_id", "key"]),
    )
    await createIndex(db, "idempotency_records_by_expiry", "idempotency_records", ["expires_at"])

    await createTable(db, "settings", { name: key, value: text })
  },
})
