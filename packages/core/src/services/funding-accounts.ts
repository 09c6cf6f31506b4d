import { Effect } from "effect"
import { type Forbidden, Invalid, messages, NotFound, type ProviderFailure } from "../errors.ts"
import { type BankAccount, FundingAccountLink } from "../model/bank-account.ts"
import type { EntityId } from "../model/ids.ts"
import type { BankAccountRecord, PaymentProfileRecord } from "../ports/storage/index.ts"
import { type Actor, requireWrite } from "./actor.ts"
import { decodeBody } from "./decode-body.ts"
import type { ServicePorts } from "./ports.ts"
import { providerCall } from "./provider-call.ts"
import { storeNewBankAccount } from "./store-bank-account.ts"
import { inTransaction } from "./transaction.ts"
import { readWorkspaceClock } from "./workspace-clock.ts"

/** Funding accounts: external bank accounts of an entity, linked through the bank-link provider, used as debit sources. */
export const makeFundingAccounts = (ports: ServicePorts) => ({
  /**
   * Links an account at a (test) bank for the entity and stores it as a bank account with an
   * active `debit` profile, as the hosted page does once the user finishes. An `institution_id`
   * the bank linker does not offer is `invalid` on that field.
   */
  link: (
    actor: Actor,
    entityId: EntityId,
    body: unknown,
  ): Effect.Effect<BankAccount, Invalid | Forbidden | NotFound | ProviderFailure> =>
    Effect.gen(function* () {
      yield* requireWrite(actor)
      const input = yield* decodeBody(FundingAccountLink, body ?? {})
      const entity = yield* inTransaction(ports.storage, (tx) =>
        Effect.gen(function* () {
          const entity = yield* tx.entities.findActiveById(entityId)
          const company = entity && (yield* tx.companies.find(actor.workspaceId, entity.company_id))
          if (!entity || !company || company.deleted_at !== null) {
            return yield* Effect.fail(new NotFound({ field: "entity_id", message: messages.entityNotFound }))
          }
          return entity
        }),
      )
      if (input.institution_id !== undefined) {
        const institutions = yield* providerCall("Bank-linking provider could not list its banks", () =>
          ports.bankLinker.institutions(),
        )
        if (!institutions.some((institution) => institution.id === input.institution_id)) {
          return yield* Effect.fail(
            Invalid.rule(
              "institution_id",
              `Unknown institution; available: ${institutions.map((institution) => institution.id).join(", ")}`,
            ),
          )
        }
      }
      const bankAccountId = ports.ids.next("ba")
      const linked = yield* providerCall("Bank-linking provider could not link the account", () =>
        ports.bankLinker.link({
          reference: bankAccountId,
          entityId: entity.id,
          ...(input.institution_id === undefined ? {} : { institutionId: input.institution_id }),
        }),
      )
      const clock = yield* readWorkspaceClock(ports, actor.workspaceId)
      const at = clock.now().toISOString()
      const account: BankAccountRecord = {
        id: bankAccountId,
        company_id: entity.company_id,
        owner_type: "Entity",
        owner_id: entity.id,
        currency: linked.currency,
        current_balance: "0.00",
        last_synced_at: null,
        provider_beneficiary_id: null,
        provider_connection_id: linked.connectionId,
        account_details: [
          {
            id: ports.ids.next("ad"),
            account_number_mask: linked.accountNumberMask,
            account_number_type: "other",
            created_at: at,
            updated_at: at,
          },
        ],
        routing_details: [
          {
            id: ports.ids.next("rd"),
            routing_number: linked.routingNumber,
            routing_number_type: linked.routingNumberType,
            bank_name: linked.institutionName,
            payment_method: linked.paymentMethod,
            created_at: at,
            updated_at: at,
          },
        ],
        party_address: null,
        created_at: at,
        updated_at: at,
      }
      const profile: PaymentProfileRecord = {
        id: ports.ids.next("pp"),
        bank_account_id: account.id,
        company_id: entity.company_id,
        status: "active",
        payment_method: linked.paymentMethod,
        currency: linked.currency,
        usage_type: "debit",
        created_at: at,
        updated_at: at,
      }
      return yield* storeNewBankAccount(ports, clock, actor.workspaceId, account, profile)
    }),
})

export type FundingAccounts = ReturnType<typeof makeFundingAccounts>
