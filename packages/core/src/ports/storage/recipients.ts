import type { Slice, Window } from "./index.ts"

export interface RecipientRecord {
  readonly id: string
  readonly company_id: string
  readonly name: string
  readonly email: string | null
  readonly created_at: string
  readonly updated_at: string
  readonly deleted_at: string | null
}

export interface RecipientRepository {
  insert(row: RecipientRecord): Promise<void>
  findActive(companyId: string, id: string): Promise<RecipientRecord | undefined>
  update(row: RecipientRecord): Promise<void>
  listActive(companyId: string, window: Window): Promise<Slice<RecipientRecord>>
}
