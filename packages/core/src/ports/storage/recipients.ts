import type { CompanyId, RecipientId } from "../../model/types/ids.ts"
import type { RecipientRecord } from "../../model/types/recipient.ts"
import type { Awaitable } from "../awaitable.ts"
import type { Slice, Window } from "./list-window.ts"

export type { RecipientRecord } from "../../model/types/recipient.ts"

export interface RecipientRepository {
  insert(row: RecipientRecord): Awaitable<void>
  findActive(companyId: CompanyId, id: RecipientId): Awaitable<RecipientRecord | undefined>
  update(row: RecipientRecord): Awaitable<void>
  listActive(companyId: CompanyId, window: Window): Awaitable<Slice<RecipientRecord>>
}
