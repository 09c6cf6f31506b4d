import { Effect } from "effect"
import { Conflict, type Forbidden, Invalid, messages, NotFound, type ProviderFailure } from "../../errors.ts"
import {
  type BankAccount,
  FundingAccountLink,
  type FundingAccountLinkBody,
  toBankAccount,
} from "../../model/bank-account.ts"
import type { BankAccountId, EntityId } from "../../model/ids.ts"
import type { FundingAccount, FundingMandateForm } from "../../model/types/bank-account.ts"
import type { BankAccountRecord, PaymentProfileRecord } from "../../ports/storage/index.ts"
import {
  fundingAccountInUseMessage,
  paymentStatusesKeepingFundingAccount,
} from "../../rules/funding-account-removal.ts"
import type { Actor } from "../steps/actor.ts"
import { decodeBody } from "../steps/decode-input.ts"
import { providerCall } from "../steps/provider-call.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { storeNewBankAccount } from "../steps/store-bank-account.ts"
import { inRead, inTransaction } from "../steps/transaction.ts"
import { writeAccess } from "../steps/use-case.ts"
import { readWorkspaceClock } from "../steps/workspace-clock.ts"

/** The longest signatory name and e-mail address a mandate takes. */
const longestMandateText = 200
/** A plain e-mail address: one `@`, no spaces, a dot in the domain. */
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const textOf = (body: unknown, field: string): string => {
  const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[field] : undefined
  return typeof value === "string" ? value.trim() : ""
}

/**
 * The problems of a hosted page's link form, every field at once: the bank (one the linker
 * offers), and the mandate's e-mail and signatory name (spec "Funding accounts token").
 */
const linkFormProblems = (
  body: unknown,
  institutions: ReadonlyArray<{ readonly id: string }>,
): ReadonlyArray<{ readonly field: string; readonly message: string }> => {
  const problems: Array<{ field: string; message: string }> = []
  const institution = textOf(body, "institution_id")
  if (institution === "") problems.push({ field: "institution_id", message: "Choose your bank" })
  else if (!institutions.some((known) => known.id === institution)) {
    problems.push({ field: "institution_id", message: "Choose one of the banks listed" })
  }
  const email = textOf(body, "mandate_email")
  if (email === "") problems.push({ field: "mandate_email", message: "Enter the e-mail address for the mandate" })
  else if (email.length > longestMandateText || !emailPattern.test(email)) {
    problems.push({ field: "mandate_email", message: "Enter an e-mail address like name@example.com" })
  }
  const signatory = textOf(body, "signatory_name")
  if (signatory === "")
    problems.push({ field: "signatory_name", message: "Enter the name of the person signing the mandate" })
  else if (signatory.length > longestMandateText) {
    problems.push({ field: "signatory_name", message: `Use at most ${longestMandateText} characters` })
  }
  return problems
}

/**
 * Links an account at a (test) bank for the entity and stores it as a bank account with an active
 * `debit` profile, with the `mandate` given on the hosted page when there is one, in one
 * transaction. An `institution_id` the bank linker does not offer is `invalid` on that field.
 */
const linkAccountWith =
  (ports: ServicePorts) =>
  (
    actor: Actor,
    entityId: EntityId,
    body: unknown,
    mandate?: { readonly email: string; readonly signatory_name: string },
  ): Effect.Effect<BankAccount, Invalid | Forbidden | NotFound | ProviderFailure> =>
    Effect.gen(function* () {
      const input = yield* decodeBody(FundingAccountLink, body ?? {})
      // The account's id is made in the transaction, so a keyed request replayed after a crash
      // links under the same reference again.
      const { entity, bankAccountId } = yield* inTransaction(ports.storage, (tx) =>
        Effect.gen(function* () {
          const entity = yield* tx.entities.findActiveById(entityId)
          const company = entity && (yield* tx.companies.find(actor.workspaceId, entity.company_id))
          if (!entity || !company || company.deleted_at !== null) {
            return yield* Effect.fail(new NotFound({ field: "entity_id", message: messages.entityNotFound }))
          }
          return { entity, bankAccountId: ports.ids.next("ba") }
        }),
      )
      if (input.institution_id !== undefined) {
        const institutions = yield* providerCall(
          { port: "bank_link", operation: "institutions" },
          "Bank-linking provider could not list its banks",
          () => ports.bankLinker.institutions(),
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
      const linked = yield* providerCall(
        { port: "bank_link", operation: "link" },
        "Bank-linking provider could not link the account",
        () =>
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
      return yield* storeNewBankAccount(
        ports,
        clock,
        actor.workspaceId,
        account,
        profile,
        mandate === undefined
          ? undefined
          : (tx) =>
              tx.fundingMandates.insert({
                ...mandate,
                bank_account_id: account.id,
                company_id: account.company_id,
                accepted_at: at,
              }),
      )
    }).pipe(writeAccess(actor))

/** Funding accounts: external bank accounts of an entity, linked through the bank-link provider, used as debit sources. */
export const makeFundingAccounts = (ports: ServicePorts) => {
  const linkAccount = linkAccountWith(ports)
  return {
    /**
     * The entity's funding accounts: its bank accounts with a `debit` profile not removed
     * (`inactive`), in id order, each with its profiles. An entity not in the actor's workspace (or deleted) is `not_found`.
     *
     * @example
     * const accounts = await engine.fundingAccounts.list(actor, entityId)
     */
    list: (actor: Actor, entityId: EntityId): Effect.Effect<ReadonlyArray<FundingAccount>, NotFound> =>
      inRead(ports.storage, (tx) =>
        Effect.gen(function* () {
          const entity = yield* tx.entities.findActiveById(entityId)
          const company = entity && (yield* tx.companies.find(actor.workspaceId, entity.company_id))
          if (!entity || !company || company.deleted_at !== null) {
            return yield* Effect.fail(new NotFound({ field: "entity_id", message: messages.entityNotFound }))
          }
          const accounts = yield* tx.bankAccounts.listByOwners("Entity", [entity.id])
          const profiles = yield* tx.paymentProfiles.listByBankAccounts(accounts.map((account) => account.id))
          const funding = accounts.filter((account) =>
            profiles.some(
              (profile) =>
                profile.bank_account_id === account.id &&
                profile.usage_type === "debit" &&
                profile.status !== "inactive",
            ),
          )
          const mandates = yield* tx.fundingMandates.listByBankAccounts(
            entity.company_id,
            funding.map((account) => account.id),
          )
          return funding.map((account): FundingAccount => {
            const mandate = mandates.find((each) => each.bank_account_id === account.id)
            return {
              ...toBankAccount(account, profiles),
              mandate:
                mandate === undefined
                  ? null
                  : { email: mandate.email, signatory_name: mandate.signatory_name, accepted_at: mandate.accepted_at },
            }
          })
        }),
      ),

    /**
     * Removes one of the entity's funding accounts: its active `debit` profiles become `inactive`
     * (the account and its profiles stay, for the payments that used them), unless a payment
     * drawing on it is pending or processing (`invalid` on `bank_account_id`, rules/funding-account-removal.ts).
     * An account that is not a funding account of this entity, or already removed, is `not_found`;
     * a profile another writer moved meanwhile is a `conflict`.
     *
     * @example
     * declare const bankAccountId: BankAccountId
     * await engine.fundingAccounts.remove(actor, entityId, bankAccountId)
     */
    remove: (
      actor: Actor,
      entityId: EntityId,
      bankAccountId: BankAccountId,
    ): Effect.Effect<void, Invalid | Forbidden | NotFound | Conflict> =>
      Effect.gen(function* () {
        const clock = yield* readWorkspaceClock(ports, actor.workspaceId)
        yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const entity = yield* tx.entities.findActiveById(entityId)
            const company = entity && (yield* tx.companies.find(actor.workspaceId, entity.company_id))
            if (!entity || !company || company.deleted_at !== null) {
              return yield* Effect.fail(new NotFound({ field: "entity_id", message: messages.entityNotFound }))
            }
            const notFound = new NotFound({ field: "bank_account_id", message: "Funding account not found" })
            const account = yield* tx.bankAccounts.find(entity.company_id, bankAccountId)
            if (!account || account.owner_type !== "Entity" || account.owner_id !== entity.id) {
              return yield* Effect.fail(notFound)
            }
            const profiles = (yield* tx.paymentProfiles.listByBankAccounts([account.id])).filter(
              (profile) => profile.usage_type === "debit" && profile.status !== "inactive",
            )
            if (profiles.length === 0) return yield* Effect.fail(notFound)
            const inUse = yield* tx.payments.anyFromProfiles(
              entity.company_id,
              profiles.map((profile) => profile.id),
              paymentStatusesKeepingFundingAccount,
            )
            if (inUse) return yield* Effect.fail(Invalid.rule("bank_account_id", fundingAccountInUseMessage))
            const at = clock.now().toISOString()
            for (const profile of profiles) {
              const moved = yield* tx.paymentProfiles.compareAndSetStatus(
                entity.company_id,
                profile.id,
                profile.status,
                "inactive",
                at,
              )
              if (!moved) {
                return yield* Effect.fail(
                  new Conflict({ field: "bank_account_id", message: "The account changed meanwhile; try again" }),
                )
              }
            }
          }),
        )
      }).pipe(writeAccess(actor)),

    /**
     * The banks the bank-linking provider offers, as `{ id, name }`.
     *
     * @example
     * const banks = await engine.fundingAccounts.institutions()
     */
    institutions: (): Effect.Effect<ReadonlyArray<{ readonly id: string; readonly name: string }>, ProviderFailure> =>
      providerCall(
        { port: "bank_link", operation: "institutions" },
        "Bank-linking provider could not list its banks",
        () => ports.bankLinker.institutions(),
      ),

    /**
     * The hosted page's link: checks the bank and the mandate (`mandate_email`, `signatory_name`),
     * every field at once in one `invalid`, then links as {@link link} does and keeps the mandate
     * (e-mail, signatory, when) with the account, in the same transaction.
     *
     * @example
     * await engine.fundingAccounts.linkWithMandate(actor, entityId, { institution_id: "sandbox_tartan", mandate_email: "a@b.co", signatory_name: "Ada" })
     */
    linkWithMandate: (
      actor: Actor,
      entityId: EntityId,
      body: FundingMandateForm,
    ): Effect.Effect<BankAccount, Invalid | Forbidden | NotFound | ProviderFailure> =>
      Effect.gen(function* () {
        const institutions = yield* providerCall(
          { port: "bank_link", operation: "institutions" },
          "Bank-linking provider could not list its banks",
          () => ports.bankLinker.institutions(),
        )
        const problems = linkFormProblems(body, institutions)
        if (problems.length > 0) return yield* Effect.fail(new Invalid({ kind: "invalid", errors: problems }))
        return yield* linkAccount(
          actor,
          entityId,
          { institution_id: textOf(body, "institution_id") },
          { email: textOf(body, "mandate_email"), signatory_name: textOf(body, "signatory_name") },
        )
      }),

    /**
     * Links an account at a (test) bank for the entity and stores it as a bank account with an
     * active `debit` profile, as the hosted page does once the user finishes. An `institution_id`
     * the bank linker does not offer is `invalid` on that field.
     */
    link: (
      actor: Actor,
      entityId: EntityId,
      body: FundingAccountLinkBody,
    ): Effect.Effect<BankAccount, Invalid | Forbidden | NotFound | ProviderFailure> =>
      linkAccount(actor, entityId, body),
  }
}

export type FundingAccounts = ReturnType<typeof makeFundingAccounts>
