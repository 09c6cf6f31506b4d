import type { CompanyRecord, CompanyRole } from "../../model/company.ts"
import type { CompanyId, WorkspaceId } from "../../model/ids.ts"
import type { Slice, Window } from "./list-window.ts"

export type { CompanyRecord } from "../../model/company.ts"

export type { CompanyRole }

export interface CompanyRepository {
  insert(row: CompanyRecord): Promise<void>
  /** The company of that workspace, deleted or not. */
  find(workspaceId: WorkspaceId, id: CompanyId): Promise<CompanyRecord | undefined>
  /** Writes every field of the row with that id. */
  update(row: CompanyRecord): Promise<void>
  /** Companies of the workspace that are not deleted, in id order. */
  listActive(workspaceId: WorkspaceId, window: Window): Promise<Slice<CompanyRecord>>
}
