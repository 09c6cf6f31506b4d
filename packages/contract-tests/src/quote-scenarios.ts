import { brandId, messages, type QuoteRecord, quoteLifetimeMs } from "@payments-engine/core"
import { expect } from "vitest"
import { activateIntegration, expectRefusal } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import {
  bankAccountRow,
  payingCompany,
  payQuote,
  profileRow,
  quoteFor,
  runAllDue,
  submissionsOf,
} from "./payment-fixtures.ts"
import { counterIds } from "./test-ports.ts"

/** Quotes: priced net or gross, only between the right profiles, cross-currency only with an integration. */
export const quoteScenarios: ScenarioGroup = {
  title: "quotes",
  scenarios: [
    {
      id: "quotes.net-and-gross",
      title:
        "a net quote adds the fee, a gross one takes it out; amounts are checked, stored as exact text and read back unchanged",
      run: async (harness) => {
        const { engine, storage, clock } = harness
        const { actor, company, from, to } = await payingCompany(harness)
        const quote = (amount: number, strategy?: "net" | "gross") =>
          quoteFor(engine, actor, company.id, from, to, amount, strategy === undefined ? {} : { strategy })
        const expiresAt = new Date(clock.now().getTime() + quoteLifetimeMs).toISOString()

        // The default fee schedule charges 0.25 USD per ACH payment.
        const net = await quote(100)
        expect(net).toMatchObject({
          instructed_amount: "100.00",
          instructed_amount_currency: "USD",
          source_amount: "100.25",
          source_amount_currency: "USD",
          target_amount: "100.00",
          target_amount_currency: "USD",
          fee: "0.25",
          fee_currency: "USD",
          fee_strategy: "net",
          exchange_rate: 1,
          currency_pair: null,
          expires_at: expiresAt,
          from_profile: { id: from, usage_type: "debit" },
          to_profile: { id: to, usage_type: "credit" },
        })
        const gross = await quote(100.1, "gross")
        expect(gross).toMatchObject({
          instructed_amount: "100.10",
          source_amount: "100.10",
          target_amount: "99.85",
          fee: "0.25",
          fee_strategy: "gross",
        })
        await expectRefusal(
          quote(0.25, "gross"),
          "invalid",
          "instructed_amount",
          "Instructed amount must be greater than the fee",
        )
        await expectRefusal(quote(0.001), "invalid", "instructed_amount", "Amount has too many decimal places for USD")
        await expectRefusal(quote(0), "invalid", "instructed_amount", "Instructed amount must be greater than zero")
        await expectRefusal(quote(-5), "invalid", "instructed_amount", "Instructed amount must be greater than zero")
        await expectRefusal(
          quote(1_000_000_000.01),
          "invalid",
          "instructed_amount",
          "Instructed amount exceeds the maximum",
        )
        const largest = await quote(1_000_000_000)
        expect(largest).toMatchObject({ source_amount: "1000000000.25", target_amount: "1000000000.00" })

        const stored = await storage.transaction(async (tx) => ({
          net: await tx.quotes.find(company.id, net.id),
          largest: await tx.quotes.find(company.id, largest.id),
          elsewhere: await tx.quotes.find(brandId("cmp", "cmp_other"), net.id),
        }))
        expect(stored).toEqual({
          net: {
            id: net.id,
            company_id: company.id,
            from_profile_id: from,
            to_profile_id: to,
            fee_strategy: "net",
            payment_method: "ach",
            instructed_amount: "100.00",
            instructed_currency: "USD",
            source_amount: "100.25",
            source_currency: "USD",
            target_amount: "100.00",
            target_currency: "USD",
            fee: "0.25",
            fee_currency: "USD",
            exchange_rate: "1",
            currency_pair: null,
            expected_completion_date: net.expected_completion_date,
            expires_at: expiresAt,
            created_at: clock.now().toISOString(),
          },
          largest: expect.objectContaining({ instructed_amount: "1000000000.00", source_amount: "1000000000.25" }),
          elsewhere: undefined,
        })
        expect(net.expected_completion_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)

        // The port keeps amounts and rates as text: trailing zeros and long rates survive.
        const ids = counterIds()
        const row: QuoteRecord = {
          ...stored.net!,
          id: ids.next("qt"),
          instructed_amount: "0.10",
          source_amount: "0.10",
          target_amount: "10.000",
          target_currency: "BHD",
          fee: "0.00",
          exchange_rate: "0.92153400",
          currency_pair: "USDBHD",
          fee_strategy: "gross",
        }
        await storage.transaction((tx) => tx.quotes.insert(row))
        expect(await storage.transaction((tx) => tx.quotes.find(company.id, row.id))).toEqual(row)
      },
    },
    {
      id: "quotes.profile-rules",
      title:
        "a quote pays from an active, connected debit profile of the company's entity to an active credit profile of its live recipient",
      run: async (harness) => {
        const { engine, storage, clock } = harness
        const { actor, company, entity, recipient, from, to, funding } = await payingCompany(harness)
        const quote = (fromId: string, toId: string, currency = "USD") =>
          quoteFor(engine, actor, company.id, fromId, toId, 10, { currency })
        const fromRule = "From profile must be a debit or balance profile of an entity of this company"
        const toRule = "To profile must be a credit profile of a recipient of this company"

        await expectRefusal(quote(to, to), "invalid", "from_profile_id", fromRule)
        await expectRefusal(quote(from, from), "invalid", "to_profile_id", toRule)
        await expectRefusal(quote("pp_unknown", to), "invalid", "from_profile_id", "From profile not found")
        await expectRefusal(quote(from, "pp_unknown"), "invalid", "to_profile_id", "To profile not found")
        await expectRefusal(
          quote(from, to, "EUR"),
          "invalid",
          "instructed_amount",
          "Currency must match the source or target profile",
        )
        await expectRefusal(
          quoteFor(engine, { ...actor, scope: "read" }, company.id, from, to, 10),
          "forbidden",
          "base",
          messages.readOnlyKey,
        )
        // Another company's profiles are not found, even in the same workspace.
        const other = await payingCompany(harness)
        await expectRefusal(quote(other.from, to), "invalid", "from_profile_id", "From profile not found")
        await expectRefusal(quote(from, other.to), "invalid", "to_profile_id", "To profile not found")

        // Profiles only the port can make: inactive, and debit on an account without a connection.
        const ids = counterIds()
        const at = clock.now().toISOString()
        const unconnected = bankAccountRow(
          ids.next("ba"),
          company.id,
          { owner_type: "Entity", owner_id: entity.id },
          at,
          {
            provider_connection_id: null,
          },
        )
        const inactiveDebit = profileRow(ids.next("pp"), { ...unconnected, id: funding.id }, "debit", "inactive", at)
        const unconnectedDebit = profileRow(ids.next("pp"), unconnected, "debit", "active", at)
        const balance = profileRow(ids.next("pp"), unconnected, "balance", "active", at)
        const recipientAccount = bankAccountRow(
          ids.next("ba"),
          company.id,
          { owner_type: "Counterparty", owner_id: recipient.id },
          at,
        )
        const draftCredit = profileRow(ids.next("pp"), recipientAccount, "credit", "draft", at)
        await storage.transaction(async (tx) => {
          await tx.bankAccounts.insert(unconnected)
          await tx.bankAccounts.insert(recipientAccount)
          for (const p of [inactiveDebit, unconnectedDebit, balance, draftCredit]) await tx.paymentProfiles.insert(p)
        })
        await expectRefusal(quote(inactiveDebit.id, to), "invalid", "from_profile_id", "From profile is not active")
        await expectRefusal(
          quote(unconnectedDebit.id, to),
          "invalid",
          "from_profile_id",
          "From profile does not have any connections",
        )
        await expectRefusal(quote(from, draftCredit.id), "invalid", "to_profile_id", "To profile is not active")
        expect((await quote(from, to)).source_amount).toBe("10.25")
        // A balance profile needs no connection.
        expect((await quote(balance.id, to)).from_profile).toMatchObject({ id: balance.id, usage_type: "balance" })

        await engine.recipients.delete(actor, company.id, recipient.id)
        await expectRefusal(quote(from, to), "invalid", "to_profile_id", "To profile's recipient has been deleted")
        await engine.entities.delete(actor, company.id, entity.id)
        await expectRefusal(
          quote(from, other.to),
          "invalid",
          "from_profile_id",
          "From profile's entity has been deleted",
        )
        await engine.companies.delete(actor, company.id)
        await expectRefusal(quote(from, to), "not_found", "company_id", messages.companyNotFound)
      },
    },
    {
      id: "quotes.cross-currency-needs-integration",
      title:
        "a cross-currency quote needs the entity's active integration; then it is priced at the provider's rate less the margin, net and gross, and paid in the source currency",
      run: async (harness) => {
        const { engine, storage, paymentProvider } = harness
        const paying = await payingCompany(harness, { fundingInstitution: "test_bank_eur" })
        const { actor, company, entity, from, to } = paying
        const quote = (amount: number, currency: string, strategy?: "net" | "gross") =>
          quoteFor(
            engine,
            actor,
            company.id,
            from,
            to,
            amount,
            strategy === undefined ? { currency } : { currency, strategy },
          )

        await expectRefusal(
          quote(100, "USD"),
          "invalid",
          "base",
          "no active payment-provider account found for the entity",
        )
        await activateIntegration(engine, actor, company.id, entity.id)

        // 1 EUR = 2 USD at the provider, less the 50 basis points margin: 1.99.
        const net = await quote(100, "USD")
        expect(net).toMatchObject({
          instructed_amount: "100.00",
          instructed_amount_currency: "USD",
          source_amount: "50.25",
          source_amount_currency: "EUR",
          target_amount: "100.00",
          target_amount_currency: "USD",
          exchange_rate: 1.99,
          currency_pair: "EURUSD",
          fee: "0.00",
          fee_currency: "EUR",
          fee_strategy: "net",
        })
        const gross = await quote(100, "EUR", "gross")
        expect(gross).toMatchObject({ source_amount: "100.00", target_amount: "199.00", fee_strategy: "gross" })
        await expectRefusal(
          quote(100, "USD", "gross"),
          "invalid",
          "fee_strategy",
          "Gross quotes must be instructed in the source currency",
        )
        await expectRefusal(
          quote(100, "GBP"),
          "invalid",
          "instructed_amount",
          "Currency must match the source or target profile",
        )
        const stored = await storage.transaction((tx) => tx.quotes.find(company.id, net.id))
        expect(stored).toMatchObject({ exchange_rate: "1.99000000", currency_pair: "EURUSD", source_amount: "50.25" })

        const { payment } = await payQuote(engine, actor, company.id, net.id, "fx")
        await runAllDue(engine)
        expect((await engine.payments.get(actor, company.id, payment.id)).status).toBe("completed")
        expect(submissionsOf(paymentProvider.submissions, [payment.id])).toEqual([
          expect.objectContaining({
            sourceAmount: "50.25",
            sourceCurrency: "EUR",
            targetAmount: "100.00",
            targetCurrency: "USD",
            answer: "completed",
          }),
        ])
      },
    },
  ],
}
