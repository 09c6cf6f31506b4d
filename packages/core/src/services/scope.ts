import { Effect } from "effect"
import { messages, NotFound } from "../errors.ts"
import { toBankAccount } from "../model/bank-account.ts"
import type { CompanyId } from "../model/ids.ts"
import type { BankAccountRecord, Repositories } from "../ports/storage/index.ts"
import type { Actor } from "./actor.ts"
import type { Lifted } from "./transaction.ts"

/*
 * Reads every service makes within one transaction: the actor's company, and bank accounts with
 * their profiles. Kept here so that no service imports another.
 */

/** The answer for a company the actor cannot see, blamed on `field`. */
export const companyNotFound = (field = "id") => new NotFound({ field, message: messages.companyNotFound })

/** The company of the actor's workspace, deleted or not; `not_found` when another workspace owns it. */
export const findCompany = (tx: Lifted<Repositories>, actor: Actor, id: CompanyId, field = "id") =>
  tx.companies
    .find(actor.workspaceId, id)
    .pipe(Effect.flatMap((row) => (row ? Effect.succeed(row) : Effect.fail(companyNotFound(field)))))

/**
 * The live company under which sub-resources are read and written. A deleted company can still
 * be fetched by id, but everything below it is gone: `not_found` on `company_id`.
 */
export const findLiveCompany = (tx: Lifted<Repositories>, actor: Actor, id: CompanyId) =>
  findCompany(tx, actor, id, "company_id").pipe(
    Effect.flatMap((row) =>
      row.deleted_at === null ? Effect.succeed(row) : Effect.fail(companyNotFound("company_id")),
    ),
  )

/** Bank accounts with their profiles, loaded in two queries whatever their number. */
export const bankAccountsWithProfiles = (tx: Lifted<Repositories>, rows: ReadonlyArray<BankAccountRecord>) =>
  tx.paymentProfiles
    .listByBankAccounts(rows.map((r) => r.id))
    .pipe(Effect.map((profiles) => rows.map((row) => toBankAccount(row, profiles))))
