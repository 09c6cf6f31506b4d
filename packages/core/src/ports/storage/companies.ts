import type { CompanyRole, StoredCompany } from "../../model/company.ts"
import type { CompanyId, WorkspaceId } from "../../model/ids.ts"
import type { Slice, Window } from "./index.ts"

export type { CompanyRole }

/** A stored company: the model's `StoredCompany` Schema. */
export type CompanyRecord = typeof StoredCompany.Type

export interface CompanyRepository {
  insert(row: CompanyRecord): Promise<void>
  /** The company of that workspace, deleted or not. */
  find(workspaceId: WorkspaceId, id: CompanyId): Promise<CompanyRecord | undefined>
  /** Writes every field of the row with that id. */
  update(row: CompanyRecord): Promise<void>
  /** Companies of the workspace that are not deleted, in id order. */
  listActive(workspaceId: WorkspaceId, window: Window): Promise<Slice<CompanyRecord>>
}
