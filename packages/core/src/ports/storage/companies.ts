import type { ProfileInUse } from "../../model/types/bank-account.ts"
import type { CompanyRecord, CompanyRole } from "../../model/types/company.ts"
import type { CompanyId, PaymentProfileId, QuoteId, WorkspaceId } from "../../model/types/ids.ts"
import type { QuoteRecord } from "../../model/types/quote.ts"
import type { Awaitable } from "../awaitable.ts"
import type { Slice, Window } from "./list-window.ts"

export type { CompanyRecord } from "../../model/types/company.ts"

export type { CompanyRole }

/** A company with the profiles a quote names: what `findWithProfilesInUse` finds. */
export interface CompanyWithProfiles {
  readonly company: CompanyRecord
  /** Those of the profiles asked for that are the company's, as `paymentProfiles.findInUse` reads them. */
  readonly profiles: ReadonlyArray<ProfileInUse>
}

/** A company with a quote and its profiles: what `findWithQuoteInUse` finds. */
export interface CompanyWithQuote extends CompanyWithProfiles {
  /** The company's quote with that id; undefined when it has none (then no profiles either). */
  readonly quote: QuoteRecord | undefined
}

export interface CompanyRepository {
  insert(row: CompanyRecord): Awaitable<void>
  /** The company of that workspace, deleted or not. */
  find(workspaceId: WorkspaceId, id: CompanyId): Awaitable<CompanyRecord | undefined>
  /**
   * The company of that workspace, deleted or not, with those of `profileIds` that are its
   * profiles (in use: account and owner, as `paymentProfiles.findInUse`), read in one go: a new
   * quote's. Undefined when the workspace has no such company.
   */
  findWithProfilesInUse(
    workspaceId: WorkspaceId,
    id: CompanyId,
    profileIds: ReadonlyArray<PaymentProfileId>,
  ): Awaitable<CompanyWithProfiles | undefined>
  /**
   * The company of that workspace, deleted or not, with its quote `quoteId` and that quote's two
   * profiles in use, read in one go: a new payment's. Undefined when the workspace has no such company.
   */
  findWithQuoteInUse(workspaceId: WorkspaceId, id: CompanyId, quoteId: QuoteId): Awaitable<CompanyWithQuote | undefined>
  /** Writes every field of the row with that id. */
  update(row: CompanyRecord): Awaitable<void>
  /** Companies of the workspace that are not deleted, in id order. */
  listActive(workspaceId: WorkspaceId, window: Window): Awaitable<Slice<CompanyRecord>>
}
