import type { CompanyRole } from "../../model/company.ts"
import type { Slice, Window } from "./index.ts"

export type { CompanyRole }

export interface CompanyRecord {
  readonly id: string
  readonly workspace_id: string
  readonly name: string
  readonly country: string
  readonly default_currency: string
  readonly role: CompanyRole
  readonly created_at: string
  readonly updated_at: string
  readonly deleted_at: string | null
}

export interface CompanyRepository {
  insert(row: CompanyRecord): Promise<void>
  /** The company of that workspace, deleted or not. */
  find(workspaceId: string, id: string): Promise<CompanyRecord | undefined>
  /** Writes every field of the row with that id. */
  update(row: CompanyRecord): Promise<void>
  /** Companies of the workspace that are not deleted, in id order. */
  listActive(workspaceId: string, window: Window): Promise<Slice<CompanyRecord>>
}
