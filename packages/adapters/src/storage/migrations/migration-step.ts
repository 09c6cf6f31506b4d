/**
 * One migration step that ran: its name, as `kysely_migration` records it, and how long it took.
 * On its own, out of the migrations' module, so that the openers' options name no Kysely type.
 */
export interface MigrationStep {
  readonly name: string
  readonly durationMs: number
}
