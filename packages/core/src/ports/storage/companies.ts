import type { CompanyRole, StoredCompany } from "../../model/company.ts"
import type { Slice, Window } from "./index.ts"

export type { CompanyRole }

/** A stored company: the model's `StoredCompany` Schema. */
export type CompanyRecord = typeof StoredCompany.Type

export interface CompanyRepository {
  insert(row: CompanyRecord): Promise<void>
  /** The company of that workspace, deleted or not. */
  find(workspaceId: string, id: string): Promise<CompanyRecord | undefined>
  /** Writes every field of the row with that id. */
  update(row: CompanyRecord): Promise<void>
  /** Companies of the workspace that are not deleted, in id order. */
  listActive(workspaceId: string, window: Window): Promise<Slice<CompanyRecord>>
}
