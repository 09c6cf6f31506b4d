import type { BankAccountId, EntityId } from "../model/types/ids.ts"

/**
 * The bank-linking provider port: links an end user's external bank account (a funding account)
 * so the engine can debit it. Keyed by the engine's reference, so a retried link does not link
 * twice.
 *
 * @example
 * declare const linker: BankLinkProvider, accountId: BankAccountId
 * const account = await linker.link({ reference: accountId, entityId: eid, institutionId: "sandbox_first_platypus" })
 */
export interface BankLinkProvider {
  /** Banks a user may pick from. */
  institutions(): Promise<ReadonlyArray<{ readonly id: string; readonly name: string }>>
  /** Links an account at the institution (the sandbox's default bank when absent). */
  link(request: LinkRequest): Promise<LinkedAccount>
  /** Removes the link; the provider stops allowing debits. */
  unlink(connectionId: string): Promise<void>
}

export interface LinkRequest {
  /** The engine's id for the bank account to be; the provider's idempotency key. */
  readonly reference: BankAccountId
  readonly entityId: EntityId
  readonly institutionId?: string
}

/** A linked account, as the provider describes it. Never carries the full account number. */
export interface LinkedAccount {
  readonly connectionId: string
  readonly institutionName: string
  readonly accountNumberMask: string
  readonly routingNumber: string
  readonly routingNumberType: "aba"
  readonly currency: string
  readonly countryCode: string
  readonly paymentMethod: string
}
