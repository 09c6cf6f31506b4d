import { Effect } from "effect"
import {
  type Forbidden,
  Invalid,
  messages,
  NotFound,
  type ProviderFailure,
  type Unauthenticated,
} from "../../errors.ts"
import { type BankAccount, BankAccountCreate, type BankAccountCreateBody } from "../../model/bank-account.ts"
import type { AccountDetailId, BankAccountId, CompanyId, RecipientId, RoutingDetailId } from "../../model/ids.ts"
import type { CreateForRecipientOptions } from "../../model/types/bank-account.ts"
import type { RequirementsSchema } from "../../ports/payment-provider.ts"
import type {
  AccountDetailRecord,
  BankAccountRecord,
  PartyAddressRecord,
  PaymentProfileRecord,
  RoutingDetailRecord,
} from "../../ports/storage/index.ts"
import { maskAccountNumber } from "../../rules/account-number-mask.ts"
import { readPath, validateBeneficiaryDetails } from "../../rules/beneficiary-validation.ts"
import { type Page, type PageQuery, pageOffset, pagePolicies, parsePageRequest, toPage } from "../../rules/paging.ts"
import type { Actor } from "../steps/actor.ts"
import { decodeBody } from "../steps/decode-input.ts"
import { useUpHostedPageToken } from "../steps/hosted-page-token-use.ts"
import { bankAccountsWithProfiles } from "../steps/lookups.ts"
import { providerCall } from "../steps/provider-call.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { storeNewBankAccount } from "../steps/store-bank-account.ts"
import { inCompany, readInCompany, writeAccess } from "../steps/use-case.ts"
import { readWorkspaceClock } from "../steps/workspace-clock.ts"

const bankAccountNotFound = () =>
  new NotFound({ field: "id", message: "Bank Account not found or not accessible in this workspace" })

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim().length > 0 ? value.trim() : undefined

/** The query for the requirements schema, read from the details themselves. */
const requirementsQueryOf = (details: Readonly<Record<string, unknown>>) => {
  const transferMethods = readPath(details, "transfer_methods")
  const query = {
    countryCode: text(readPath(details, "bank_details.bank_country_code"))?.toUpperCase(),
    currencyCode: text(readPath(details, "bank_details.account_currency"))?.toUpperCase(),
    entityType: text(readPath(details, "entity_type"))?.toUpperCase(),
    transferMethod: (Array.isArray(transferMethods) ? text(transferMethods[0]) : undefined)?.toUpperCase() ?? "LOCAL",
    localClearingSystem: text(readPath(details, "bank_details.local_clearing_system"))?.toUpperCase(),
  }
  const missing = [
    ["bank_details.bank_country_code", query.countryCode],
    ["bank_details.account_currency", query.currencyCode],
    ["entity_type", query.entityType],
  ]
    .filter(([, value]) => value === undefined)
    .map(([path]) => ({ field: `beneficiary_details.${path}`, message: "is required" }))
  if (query.entityType !== undefined && query.entityType !== "COMPANY" && query.entityType !== "PERSONAL") {
    missing.push({ field: "beneficiary_details.entity_type", message: "must be one of: COMPANY, PERSONAL" })
  }
  return missing.length > 0
    ? Effect.fail(new Invalid({ kind: "invalid", errors: missing }))
    : Effect.succeed({
        countryCode: query.countryCode!,
        currencyCode: query.currencyCode!,
        entityType: query.entityType as "COMPANY" | "PERSONAL",
        transferMethod: query.transferMethod,
        ...(query.localClearingSystem === undefined ? {} : { localClearingSystem: query.localClearingSystem }),
      })
}

/** Account detail, routing details and address of a validated form; the full number is only masked. */
const detailsOf = (
  details: Readonly<Record<string, unknown>>,
  schema: RequirementsSchema,
  ids: () => { account: AccountDetailId; routing: () => RoutingDetailId },
  now: string,
) => {
  const accountField = schema.fields.find((f) => f.path === "bank_details.account_number")
  const accountNumber = text(readPath(details, "bank_details.account_number")) ?? ""
  const idsFor = ids()
  const accountDetails: AccountDetailRecord[] = [
    {
      id: idsFor.account,
      account_number_mask: maskAccountNumber(accountNumber),
      account_number_type: accountField?.rule?.type === "IBAN" ? "iban" : "other",
      created_at: now,
      updated_at: now,
    },
  ]
  const routingDetails: RoutingDetailRecord[] = [1, 2].flatMap((n) => {
    const type = text(readPath(details, `bank_details.account_routing_type${n}`))
    const value = text(readPath(details, `bank_details.account_routing_value${n}`))
    if (type === undefined || value === undefined) return []
    return [
      {
        id: idsFor.routing(),
        routing_number: value,
        routing_number_type: type.toLowerCase(),
        bank_name: null,
        payment_method: schema.payment_method,
        created_at: now,
        updated_at: now,
      },
    ]
  })
  const address = readPath(details, "address")
  const field = (name: string) => text(readPath(details, `address.${name}`)) ?? ""
  const partyAddress: PartyAddressRecord | null =
    typeof address === "object" && address !== null
      ? {
          country_code: field("country_code").toUpperCase(),
          street_address: field("street_address"),
          city: field("city"),
          state: field("state"),
          postcode: field("postcode"),
        }
      : null
  return { accountDetails, routingDetails, partyAddress }
}

/** Use cases of bank accounts: created for recipients (validated by the provider's schema), then read-only. */
export const makeBankAccounts = (ports: ServicePorts) => ({
  /**
   * Validates `beneficiary_details` against the provider's requirements (every failing field at
   * once), registers the beneficiary, and stores the account with a `credit` profile and its
   * events in one transaction.
   */
  createForRecipient: (
    actor: Actor,
    companyId: CompanyId,
    recipientId: RecipientId,
    body: BankAccountCreateBody,
    options: CreateForRecipientOptions = {},
  ): Effect.Effect<BankAccount, Invalid | Forbidden | NotFound | ProviderFailure | Unauthenticated> =>
    Effect.gen(function* () {
      const input = yield* decodeBody(BankAccountCreate, body)
      // The account's id is made in the transaction, so a keyed request replayed after a crash
      // registers the beneficiary under the same reference again, which the provider answers once.
      const { company, recipient, bankAccountId } = yield* inCompany(ports, actor, companyId, ({ tx, company }) =>
        Effect.gen(function* () {
          const recipient = yield* tx.recipients.findActive(company.id, recipientId)
          if (!recipient) return yield* Effect.fail(new NotFound({ field: "id", message: messages.recipientNotFound }))
          const entity = yield* tx.entities.findActive(company.id, input.entity_id)
          if (!entity) return yield* Effect.fail(Invalid.rule("entity_id", "Entity does not belong to this company"))
          return { company, recipient, bankAccountId: ports.ids.next("ba") }
        }),
      )
      const details = input.beneficiary_details
      const query = yield* requirementsQueryOf(details)
      const answer = yield* providerCall(
        { port: "payment", operation: "bankAccountRequirements" },
        "Payment provider is unavailable",
        () => ports.paymentProvider.bankAccountRequirements(query),
      )
      if (!answer.ok) return yield* Effect.fail(Invalid.rule("base", answer.message))
      const errors = validateBeneficiaryDetails(details, answer.schema)
      if (errors.length > 0) return yield* Effect.fail(new Invalid({ kind: "invalid", errors }))

      const beneficiary = yield* providerCall(
        { port: "payment", operation: "createBeneficiary" },
        "Payment provider could not register the beneficiary",
        () => ports.paymentProvider.createBeneficiary({ reference: bankAccountId, details }),
      )
      const clock = yield* readWorkspaceClock(ports, actor.workspaceId)
      const at = clock.now().toISOString()
      const { accountDetails, routingDetails, partyAddress } = detailsOf(
        details,
        answer.schema,
        () => ({ account: ports.ids.next("ad"), routing: () => ports.ids.next("rd") }),
        at,
      )
      const account: BankAccountRecord = {
        id: bankAccountId,
        company_id: company.id,
        owner_type: "Counterparty",
        owner_id: recipient.id,
        currency: query.currencyCode,
        current_balance: "0.00",
        last_synced_at: null,
        provider_beneficiary_id: beneficiary.providerBeneficiaryId,
        provider_connection_id: null,
        account_details: accountDetails,
        routing_details: routingDetails,
        party_address: partyAddress,
        created_at: at,
        updated_at: at,
      }
      const profile: PaymentProfileRecord = {
        id: ports.ids.next("pp"),
        bank_account_id: account.id,
        company_id: company.id,
        status: "active",
        payment_method: answer.schema.payment_method,
        currency: query.currencyCode,
        usage_type: "credit",
        created_at: at,
        updated_at: at,
      }
      const { usingToken } = options
      return yield* storeNewBankAccount(
        ports,
        clock,
        actor.workspaceId,
        account,
        profile,
        usingToken === undefined ? undefined : (tx) => useUpHostedPageToken(tx, usingToken, clock.now()),
      )
    }).pipe(writeAccess(actor)),

  get: (actor: Actor, companyId: CompanyId, id: BankAccountId): Effect.Effect<BankAccount, NotFound> =>
    readInCompany(ports, actor, companyId, ({ tx, company }) =>
      Effect.gen(function* () {
        const row = yield* tx.bankAccounts.find(company.id, id)
        if (!row) return yield* Effect.fail(bankAccountNotFound())
        const [account] = yield* bankAccountsWithProfiles(tx, [row])
        return account!
      }),
    ),

  list: (
    actor: Actor,
    companyId: CompanyId,
    query: PageQuery = {},
  ): Effect.Effect<Page<BankAccount>, Invalid | NotFound> =>
    Effect.gen(function* () {
      const request = yield* parsePageRequest(query, pagePolicies.bankAccounts)
      return yield* readInCompany(ports, actor, companyId, ({ tx, company }) =>
        Effect.gen(function* () {
          const slice = yield* tx.bankAccounts.listByCompany(company.id, {
            offset: pageOffset(request),
            limit: request.perPage,
          })
          return toPage(yield* bankAccountsWithProfiles(tx, slice.rows), slice.total, request)
        }),
      )
    }),
})

export type BankAccounts = ReturnType<typeof makeBankAccounts>
