import { randomUUID } from "node:crypto"
import type { ProcessLiveness } from "@payments-engine/core"

/**
 * The liveness of a storage only one process opens (SQLite, PGlite): this process has an id made
 * when the storage opened, and no other id runs, so whatever a process that opened it before
 * claimed is known dead.
 *
 * @example
 * const processes = oneProcessLiveness()
 * await processes.isRunning(await processes.self()) // true
 */
export const oneProcessLiveness = (): ProcessLiveness => {
  const self = `process:${randomUUID()}`
  return {
    self: async () => self,
    isRunning: async (id) => id === self,
  }
}
