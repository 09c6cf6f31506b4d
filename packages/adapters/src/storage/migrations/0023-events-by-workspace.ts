import type { Kysely, Migration } from "kysely"
import { createIndex } from "./column-helpers.ts"

/**
 * `GET /api/v1/events` reads a workspace's events newest first, or those of one resource: without
 * these, each page would scan every event the engine ever wrote.
 */
export const eventsByWorkspaceSchema = (): Migration => ({
  up: async (db: Kysely<unknown>) => {
    await createIndex(db, "events_by_workspace", "events", ["workspace_id", "created_at", "id"])
    await createIndex(db, "events_by_resource", "events", ["workspace_id", "resource_id", "created_at"])
  },
})
