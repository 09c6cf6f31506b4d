import { createHash } from "node:crypto"
import type { BankAccountId, BankLinkProvider, LinkedAccount, LinkRequest } from "@payments-engine/core"

/** A test bank of the sandbox: linking an account there always gives the same account. */
export interface SandboxTestBank {
  readonly id: string
  readonly name: string
  readonly routingNumber: string
  readonly accountNumber: string
}

/** The sandbox's test banks, documented in the README like Stripe's test cards. */
export const sandboxTestBanks: ReadonlyArray<SandboxTestBank> = [
  {
    id: "sandbox_first_platypus",
    name: "First Platypus Bank",
    routingNumber: "011000015",
    accountNumber: "1111222233330000",
  },
  { id: "sandbox_tartan", name: "Tartan Bank", routingNumber: "021000021", accountNumber: "1111222233331111" },
  {
    id: "sandbox_houndstooth",
    name: "Houndstooth Bank",
    routingNumber: "026009593",
    accountNumber: "1111222233332222",
  },
]

export interface SandboxBankLinkerOptions {
  /** Makes the next call of a method reject with the error, once. */
  readonly failures?: Partial<Record<"link" | "unlink", Error>>
}

/**
 * A bank-link provider for the sandbox: links US checking accounts at the test banks, paid by
 * ACH, keyed by the engine's reference so a retried link returns the same connection.
 *
 * @example
 * const linker = createSandboxBankLinker()
 * declare const accountId: BankAccountId
 * const account = await linker.link({ reference: accountId, entityId: eid, institutionId: "sandbox_tartan" })
 * account.accountNumberMask // "****1111"
 */
export const createSandboxBankLinker = (options: SandboxBankLinkerOptions = {}) => {
  const failures = new Map(Object.entries(options.failures ?? {}))
  const links = new Map<BankAccountId, LinkedAccount>()
  const takeFailure = (method: "link" | "unlink") => {
    const failure = failures.get(method)
    failures.delete(method)
    if (failure) throw failure
  }
  const linker: BankLinkProvider & {
    failNext(method: "link" | "unlink", error: Error): void
    linkedConnections(): ReadonlyArray<string>
  } = {
    institutions: async () => sandboxTestBanks.map(({ id, name }) => ({ id, name })),
    link: async (request: LinkRequest) => {
      takeFailure("link")
      const existing = links.get(request.reference)
      if (existing) return existing
      const bank = sandboxTestBanks.find((b) => b.id === (request.institutionId ?? sandboxTestBanks[0]!.id))
      if (!bank) throw new Error(`Unknown sandbox institution ${request.institutionId}`)
      const account: LinkedAccount = {
        connectionId: `conn_${createHash("sha256").update(request.reference).digest("hex").slice(0, 24)}`,
        institutionName: bank.name,
        accountNumberMask: `****${bank.accountNumber.slice(-4)}`,
        routingNumber: bank.routingNumber,
        routingNumberType: "aba",
        currency: "USD",
        countryCode: "US",
        paymentMethod: "ach",
      }
      links.set(request.reference, account)
      return account
    },
    unlink: async (connectionId: string) => {
      takeFailure("unlink")
      for (const [reference, account] of links) if (account.connectionId === connectionId) links.delete(reference)
    },
    failNext: (method, error) => {
      failures.set(method, error)
    },
    linkedConnections: () => [...links.values()].map((a) => a.connectionId),
  }
  return linker
}

export type SandboxBankLinker = ReturnType<typeof createSandboxBankLinker>
