import type { CompanyId, RecipientId } from "../../model/ids.ts"
import type { StoredRecipient } from "../../model/recipient.ts"
import type { Slice, Window } from "./index.ts"

/** A stored recipient: the model's `StoredRecipient` Schema. */
export type RecipientRecord = typeof StoredRecipient.Type

export interface RecipientRepository {
  insert(row: RecipientRecord): Promise<void>
  findActive(companyId: CompanyId, id: RecipientId): Promise<RecipientRecord | undefined>
  update(row: RecipientRecord): Promise<void>
  listActive(companyId: CompanyId, window: Window): Promise<Slice<RecipientRecord>>
}
