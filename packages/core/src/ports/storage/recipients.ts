import type { CompanyId, RecipientId } from "../../model/ids.ts"
import type { RecipientRecord } from "../../model/recipient.ts"
import type { Slice, Window } from "./list-window.ts"

export type { RecipientRecord } from "../../model/recipient.ts"

export interface RecipientRepository {
  insert(row: RecipientRecord): Promise<void>
  findActive(companyId: CompanyId, id: RecipientId): Promise<RecipientRecord | undefined>
  update(row: RecipientRecord): Promise<void>
  listActive(companyId: CompanyId, window: Window): Promise<Slice<RecipientRecord>>
}
