import { Effect } from "effect"
import { messages, NotFound } from "../../errors.ts"
import { toBankAccount } from "../../model/bank-account.ts"
import type { CompanyId, WebhookEndpointId } from "../../model/ids.ts"
import { webhookEndpointMessages } from "../../model/webhook-endpoint.ts"
import type { BankAccountRecord } from "../../ports/storage/index.ts"
import type { Actor } from "./actor.ts"
import type { Lifted, ReadRepositories } from "./transaction.ts"

/*
 * Reads every service makes within one transaction: the actor's company, and bank accounts with
 * their profiles. Kept here so that no service imports another.
 */

/** The answer for a company the actor cannot see, blamed on `field`. */
export const companyNotFound = (field = "id") => new NotFound({ field, message: messages.companyNotFound })

/** The company of the actor's workspace, deleted or not; `not_found` when another workspace owns it. */
export const findCompany = (tx: Lifted<ReadRepositories>, actor: Actor, id: CompanyId, field = "id") =>
  tx.companies
    .find(actor.workspaceId, id)
    .pipe(Effect.flatMap((row) => (row ? Effect.succeed(row) : Effect.fail(companyNotFound(field)))))

/**
 * The live company under which sub-resources are read and written. A deleted company can still
 * be fetched by id, but everything below it is gone: `not_found` on `company_id`.
 */
export const findLiveCompany = (tx: Lifted<ReadRepositories>, actor: Actor, id: CompanyId) =>
  findCompany(tx, actor, id, "company_id").pipe(
    Effect.flatMap((row) =>
      row.deleted_at === null ? Effect.succeed(row) : Effect.fail(companyNotFound("company_id")),
    ),
  )

/** Bank accounts with their profiles, loaded in two queries whatever their number. */
export const bankAccountsWithProfiles = (tx: Lifted<ReadRepositories>, rows: ReadonlyArray<BankAccountRecord>) =>
  tx.paymentProfiles
    .listByBankAccounts(rows.map((r) => r.id))
    .pipe(Effect.map((profiles) => rows.map((row) => toBankAccount(row, profiles))))

/** The answer for a webhook endpoint the actor cannot see (the webhook routes' `not_found`). */
export const webhookEndpointNotFound = (field = "id", message: string = webhookEndpointMessages.notFound) =>
  new NotFound({ field, message })

/** The live webhook endpoint `id` of the actor's workspace, under the path's company when there is one. */
export const findLiveWebhookEndpoint = (
  tx: Lifted<ReadRepositories>,
  actor: Actor,
  companyId: CompanyId | null,
  id: WebhookEndpointId,
) =>
  Effect.gen(function* () {
    if (companyId !== null) yield* findLiveCompany(tx, actor, companyId)
    const row = yield* tx.webhookEndpoints.find(actor.workspaceId, id)
    if (row === undefined || (companyId !== null && row.company_id !== companyId)) {
      return yield* Effect.fail(webhookEndpointNotFound())
    }
    // Found by the workspace alone, its company must still be live, as under the company path.
    if (companyId === null) {
      const company = yield* tx.companies.find(actor.workspaceId, row.company_id)
      if (company === undefined || company.deleted_at !== null) return yield* Effect.fail(webhookEndpointNotFound())
    }
    return row
  })
