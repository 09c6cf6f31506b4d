import {
  type BankAccountCreateBody,
  brandId,
  fundingAccountInUseMessage,
  messages,
  type PaymentProfileId,
  type ProfileInUse,
} from "@payments-engine/core"
import { expect } from "vitest"
import { expectRefusal, refusal } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import { bankAccountRow, payingCompany, profileRow, quoteAndPay } from "./payment-fixtures.ts"
import { counterIds } from "./test-ports.ts"
import { testBeneficiary } from "./test-providers.ts"

const withBankDetails = (changes: Record<string, unknown>) => ({
  ...testBeneficiary,
  bank_details: { ...testBeneficiary.bank_details, ...changes },
})

/** Recipient bank accounts and linked funding accounts: stored with their profile, validated, scoped. */
export const bankAccountScenarios: ScenarioGroup = {
  title: "bank accounts",
  scenarios: [
    {
      id: "bank-accounts.create-and-read",
      title:
        "a recipient bank account is stored masked with its credit profile, listed on the recipient and the company, and round-trips every column",
      run: async (harness) => {
        const { engine, storage, paymentProvider } = harness
        const { actor, company, recipient, entity, account: first } = await payingCompany(harness)
        const address = {
          country_code: "us",
          street_address: "1 Main St",
          city: "Springfield",
          state: "IL",
          postcode: "62701",
        }
        const second = await engine.bankAccounts.createForRecipient(actor, company.id, recipient.id, {
          entity_id: entity.id,
          beneficiary_details: { ...withBankDetails({ account_number: "9876543210" }), address },
        })
        expect(second).toMatchObject({
          owner_type: "Counterparty",
          owner_id: recipient.id,
          currency: "USD",
          current_balance: "0.00",
          account_details: [{ account_number_mask: "****3210", account_number_type: "other" }],
          routing_details: [{ routing_number: "021000021", routing_number_type: "aba", payment_method: "ach" }],
          party_address: { ...address, country_code: "US" },
          payment_profiles: [{ status: "active", usage_type: "credit", payment_method: "ach", currency: "USD" }],
        })
        expect(first.party_address).toBeNull()
        // The full number went to the provider, keyed by the account id, and nowhere else.
        expect(paymentProvider.beneficiaries.map((b) => b.reference)).toEqual([first.id, second.id])
        const stored = await storage.transaction((tx) => tx.bankAccounts.find(company.id, second.id))
        expect(stored).toMatchObject({ provider_beneficiary_id: `ben_${second.id}`, provider_connection_id: null })
        expect(JSON.stringify(stored)).not.toContain("9876543210")

        const onRecipient = (await engine.recipients.get(actor, company.id, recipient.id)).bank_accounts
        expect(onRecipient.map((a) => a.id)).toEqual([first.id, second.id])
        expect(await engine.bankAccounts.get(actor, company.id, second.id)).toEqual(onRecipient[1])
        const listed = await engine.bankAccounts.list(actor, company.id)
        expect(listed.data.map((a) => a.owner_type)).toEqual(["Counterparty", "Entity", "Counterparty"])
        expect(listed.meta.total_records).toBe(3)
        const page = await engine.bankAccounts.list(actor, company.id, { page: 2, per_page: 2 })
        expect(page.data.map((a) => a.id)).toEqual([second.id])
        const other = await engine.companies.create(actor, { name: "Other", country: "US", default_currency: "USD" })
        await expectRefusal(
          engine.bankAccounts.get(actor, other.id, second.id),
          "not_found",
          "id",
          "Bank Account not found or not accessible in this workspace",
        )

        // The port itself: every column comes back as written, JSON columns and text amounts included.
        const ids = counterIds()
        const at = harness.clock.now().toISOString()
        const row = bankAccountRow(
          ids.next("ba"),
          other.id,
          { owner_type: "Counterparty", owner_id: ids.next("rcp") },
          at,
        )
        const bare = bankAccountRow(ids.next("ba"), other.id, { owner_type: "Entity", owner_id: ids.next("ent") }, at, {
          last_synced_at: null,
          party_address: null,
          current_balance: "0.10",
          routing_details: [],
        })
        const profiles = [
          profileRow(ids.next("pp"), row, "credit", "active", at),
          profileRow(ids.next("pp"), row, "credit", "inactive", at),
          profileRow(ids.next("pp"), bare, "debit", "draft", at),
        ]
        await storage.transaction(async (tx) => {
          await tx.bankAccounts.insert(row)
          await tx.bankAccounts.insert(bare)
          for (const profile of profiles) await tx.paymentProfiles.insert(profile)
        })
        const read = await storage.transaction(async (tx) => ({
          row: await tx.bankAccounts.find(other.id, row.id),
          bare: await tx.bankAccounts.find(other.id, bare.id),
          elsewhere: await tx.bankAccounts.find(company.id, row.id),
          list: await tx.bankAccounts.listByCompany(other.id, { offset: 1, limit: 5 }),
          byOwner: await tx.bankAccounts.listByOwners("Counterparty", [row.owner_id, recipient.id]),
          wrongType: await tx.bankAccounts.listByOwners("Entity", [row.owner_id]),
          none: await tx.bankAccounts.listByOwners("Counterparty", []),
          profile: await tx.paymentProfiles.find(other.id, profiles[0]!.id),
          profileElsewhere: await tx.paymentProfiles.find(company.id, profiles[0]!.id),
          profiles: await tx.paymentProfiles.listByBankAccounts([bare.id, row.id]),
          noProfiles: await tx.paymentProfiles.listByBankAccounts([]),
        }))
        expect(read).toEqual({
          row,
          bare,
          elsewhere: undefined,
          list: { rows: [bare], total: 2 },
          byOwner: [first, second]
            .map((a) => expect.objectContaining({ id: a.id }))
            .concat([expect.objectContaining(row)]),
          wrongType: [],
          none: [],
          profile: profiles[0],
          profileElsewhere: undefined,
          profiles,
          noProfiles: [],
        })
      },
    },
    {
      id: "bank-accounts.validation",
      title:
        "a bank account is checked against the provider's schema, every failing field at once, and nothing is stored or registered when refused",
      run: async (harness) => {
        const { engine, paymentProvider } = harness
        const actor = await harness.workspace()
        const company = await engine.companies.create(actor, { name: "Valid", country: "US", default_currency: "USD" })
        const entity = await engine.entities.create(actor, company.id, { name: "Valid", country_alpha2: "US" })
        const recipient = await engine.recipients.create(actor, company.id, { name: "Payee" })
        const create = (beneficiary_details: unknown, entityId = entity.id, recipientId = recipient.id) =>
          engine.bankAccounts.createForRecipient(actor, company.id, recipientId, {
            entity_id: entityId,
            beneficiary_details: beneficiary_details as BankAccountCreateBody["beneficiary_details"],
          })

        const wrong = await refusal(
          create(withBankDetails({ account_name: "", account_number: "12AB", account_routing_value1: "021000022" })),
        )
        expect({ kind: wrong.kind, errors: wrong.errors }).toEqual({
          kind: "invalid",
          errors: [
            { field: "beneficiary_details.bank_details.account_name", message: "is required" },
            { field: "beneficiary_details.bank_details.account_number", message: "is invalid" },
            {
              field: "beneficiary_details.bank_details.account_routing_value1",
              message: "is not a valid ABA routing number",
            },
          ],
        })
        await expectRefusal(
          create(withBankDetails({ bank_country_code: "GB", account_currency: "GBP" })),
          "invalid",
          "base",
          "Bank country GB does not support currency GBP",
        )
        const { entity_type: _, ...noType } = testBeneficiary
        await expectRefusal(create(noType), "invalid", "beneficiary_details.entity_type", "is required")
        const other = await engine.companies.create(actor, { name: "Other", country: "US", default_currency: "USD" })
        const otherEntity = await engine.entities.create(actor, other.id, { name: "Other", country_alpha2: "US" })
        await expectRefusal(
          create(testBeneficiary, otherEntity.id),
          "invalid",
          "entity_id",
          "Entity does not belong to this company",
        )
        await expectRefusal(
          create(testBeneficiary, entity.id, brandId("rcp", "rcp_unknown")),
          "not_found",
          "id",
          messages.recipientNotFound,
        )
        await expectRefusal(
          engine.bankAccounts.createForRecipient({ ...actor, scope: "read" }, company.id, recipient.id, {
            entity_id: entity.id,
            beneficiary_details: testBeneficiary,
          }),
          "forbidden",
          "base",
          messages.readOnlyKey,
        )

        expect(paymentProvider.beneficiaries).toEqual([])
        expect((await engine.bankAccounts.list(actor, company.id)).meta.total_records).toBe(0)
        expect((await engine.recipients.get(actor, company.id, recipient.id)).bank_accounts).toEqual([])
        // Only the entity's creation: no refused account wrote an event.
        expect((await harness.reader.eventsOfCompany(company.id)).map((e) => e.event)).toEqual(["entity.created"])
        // The valid account goes through afterwards.
        expect((await create(testBeneficiary)).payment_profiles).toHaveLength(1)
      },
    },
    {
      id: "funding-accounts.list-and-remove",
      title:
        "an entity's funding accounts are listed, with the mandate given when linked on the hosted page; one with a pending or processing payment stays, else its debit profile becomes inactive and it leaves the list",
      run: async (harness) => {
        const { engine, storage } = harness
        const paying = await payingCompany(harness)
        const { actor, company, entity, funding } = paying
        const second = await engine.fundingAccounts.link(actor, entity.id, {})
        expect((await engine.fundingAccounts.list(actor, entity.id)).map((a) => a.id)).toEqual([funding.id, second.id])
        // Linked on the hosted page, an account keeps its mandate; linked otherwise it has none.
        const mandated = await engine.fundingAccounts.linkWithMandate(actor, entity.id, {
          institution_id: "test_bank",
          mandate_email: " ada@example.com ",
          signatory_name: "Ada Lovelace",
        })
        const listed = await engine.fundingAccounts.list(actor, entity.id)
        expect(listed.map((a) => [a.id, a.mandate])).toEqual([
          [funding.id, null],
          [second.id, null],
          [
            mandated.id,
            {
              email: "ada@example.com",
              signatory_name: "Ada Lovelace",
              accepted_at: harness.clock.now().toISOString(),
            },
          ],
        ])
        const { mandate: _, ...mandatedAccount } = listed[2]!
        expect(mandatedAccount).toEqual(mandated)
        await engine.fundingAccounts.remove(actor, entity.id, mandated.id)
        const { payment } = await quoteAndPay(harness, paying, 10, "keeps-the-account")
        expect(payment.status).toBe("pending")
        await expectRefusal(
          engine.fundingAccounts.remove(actor, entity.id, funding.id),
          "invalid",
          "bank_account_id",
          fundingAccountInUseMessage,
        )
        // The port: only pending and processing payments drawing on the profile count.
        const fromIds = [paying.from]
        const inUse = (statuses: ReadonlyArray<"pending" | "processing" | "completed">) =>
          storage.transaction((tx) => tx.payments.anyFromProfiles(company.id, fromIds, statuses))
        expect(await inUse(["pending", "processing"])).toBe(true)
        expect(await inUse(["completed"])).toBe(false)
        expect(await inUse([])).toBe(false)
        expect(
          await storage.transaction((tx) => tx.payments.anyFromProfiles(company.id, [paying.to], ["pending"])),
        ).toBe(false)
        const other = await engine.companies.create(actor, { name: "Other", country: "US", default_currency: "USD" })
        expect(await storage.transaction((tx) => tx.payments.anyFromProfiles(other.id, fromIds, ["pending"]))).toBe(
          false,
        )

        await engine.fundingAccounts.remove(actor, entity.id, second.id)
        expect((await engine.fundingAccounts.list(actor, entity.id)).map((a) => a.id)).toEqual([funding.id])
        const kept = await storage.transaction((tx) =>
          tx.paymentProfiles.find(company.id, second.payment_profiles[0]!.id),
        )
        expect(kept).toMatchObject({ status: "inactive", usage_type: "debit" })
        await expectRefusal(
          engine.fundingAccounts.remove(actor, entity.id, second.id),
          "not_found",
          "bank_account_id",
          "Funding account not found",
        )
        // A recipient's account is not a funding account; another workspace cannot remove this one.
        await expectRefusal(
          engine.fundingAccounts.remove(actor, entity.id, paying.account.id),
          "not_found",
          "bank_account_id",
          "Funding account not found",
        )
        const stranger = await harness.workspace()
        await expectRefusal(
          engine.fundingAccounts.remove(stranger, entity.id, funding.id),
          "not_found",
          "entity_id",
          messages.entityNotFound,
        )
        // The compare-and-set moves only from the status given, within the company.
        const profileId = funding.payment_profiles[0]!.id
        const at = harness.clock.now().toISOString()
        const cas = (companyId: typeof company.id, from: "active" | "inactive") =>
          storage.transaction((tx) => tx.paymentProfiles.compareAndSetStatus(companyId, profileId, from, "failed", at))
        expect(await cas(company.id, "inactive")).toBeUndefined()
        expect(await cas(other.id, "active")).toBeUndefined()
        expect(await cas(company.id, "active")).toMatchObject({ id: profileId, status: "failed", updated_at: at })
      },
    },
    {
      id: "payment-profiles.find-in-use",
      title:
        "findInUse finds each of the company's profiles asked for, however many: one alone, an odd number (the last one too), an even number; another company's and unknown ids are left out",
      run: async (harness) => {
        const { storage } = harness
        const ids = counterIds()
        const [company, other] = [ids.next("cmp"), ids.next("cmp")]
        const at = harness.clock.now().toISOString()
        const profileOf = (companyId: typeof company) => {
          const account = bankAccountRow(
            ids.next("ba"),
            companyId,
            { owner_type: "Counterparty", owner_id: ids.next("rcp") },
            at,
          )
          return { account, profile: profileRow(ids.next("pp"), account, "credit", "active", at) }
        }
        const mine = [1, 2, 3, 4, 5].map(() => profileOf(company))
        const theirs = profileOf(other)
        await storage.transaction(async (tx) => {
          for (const { account, profile } of [...mine, theirs]) {
            await tx.bankAccounts.insert(account)
            await tx.paymentProfiles.insert(profile)
          }
        })
        const found = async (asked: ReadonlyArray<PaymentProfileId>) => {
          const uses = await storage.transaction((tx) => tx.paymentProfiles.findInUse(company, asked))
          return uses.map((use: ProfileInUse) => use.profile.id).sort()
        }
        const [p1, p2, p3, p4, p5] = mine.map(({ profile }) => profile.id) as [
          PaymentProfileId,
          PaymentProfileId,
          PaymentProfileId,
          PaymentProfileId,
          PaymentProfileId,
        ]
        const unknown = brandId("pp", "pp_unknown")
        expect(await found([])).toEqual([])
        expect(await found([p3])).toEqual([p3])
        expect(await found([p1, p2])).toEqual([p1, p2].sort())
        // An odd number: the last id is asked for alone, and must still be found.
        expect(await found([p1, p2, p3])).toEqual([p1, p2, p3].sort())
        expect(await found([p5, p4, p3, p2, p1])).toEqual([p1, p2, p3, p4, p5].sort())
        expect(await found([p1, p2, p3, p4])).toEqual([p1, p2, p3, p4].sort())
        // Left out, wherever they stand: another company's profile and an unknown id.
        expect(await found([p1, theirs.profile.id, p2])).toEqual([p1, p2].sort())
        expect(await found([p1, p2, theirs.profile.id])).toEqual([p1, p2].sort())
        expect(await found([unknown, p4, p5])).toEqual([p4, p5].sort())
        expect(await found([theirs.profile.id])).toEqual([])
        // Each with its account's links, as a lookup of it alone gives it.
        const alone = await storage.transaction((tx) => tx.paymentProfiles.findInUse(company, [p5]))
        const amongOthers = await storage.transaction((tx) => tx.paymentProfiles.findInUse(company, [p1, p2, p5]))
        expect(amongOthers.find((use) => use.profile.id === p5)).toEqual(alone[0])
        expect(alone[0]).toMatchObject({
          profile: mine[4]!.profile,
          owner_type: "Counterparty",
          owner_id: mine[4]!.account.owner_id,
          provider_beneficiary_id: mine[4]!.account.provider_beneficiary_id,
          owner_live: false,
        })
      },
    },
    {
      id: "funding-accounts.link",
      title:
        "a linked funding account is stored as an entity's bank account with an active debit profile and its connection; only the caller's live entities link",
      run: async (harness) => {
        const { engine, storage, bankLinker } = harness
        const actor = await harness.workspace()
        const company = await engine.companies.create(actor, { name: "Funder", country: "US", default_currency: "USD" })
        const entity = await engine.entities.create(actor, company.id, { name: "Funder", country_alpha2: "US" })
        const linked = await engine.fundingAccounts.link(actor, entity.id, {})
        expect(linked).toMatchObject({
          owner_type: "Entity",
          owner_id: entity.id,
          currency: "USD",
          account_details: [{ account_number_mask: "****0000" }],
          routing_details: [{ routing_number: "011000015", routing_number_type: "aba", bank_name: "Test Bank" }],
          payment_profiles: [{ status: "active", usage_type: "debit", payment_method: "ach", currency: "USD" }],
        })
        const euro = await engine.fundingAccounts.link(actor, entity.id, { institution_id: "test_bank_eur" })
        expect(euro).toMatchObject({ currency: "EUR", payment_profiles: [{ currency: "EUR", usage_type: "debit" }] })
        expect(bankLinker.links).toEqual([linked.id, euro.id])
        const stored = await storage.transaction(async (tx) => ({
          account: await tx.bankAccounts.find(company.id, linked.id),
          profile: await tx.paymentProfiles.find(company.id, linked.payment_profiles[0]!.id),
        }))
        expect(stored.account).toMatchObject({
          provider_connection_id: `conn_${linked.id}`,
          provider_beneficiary_id: null,
        })
        expect(stored.profile).toMatchObject({ bank_account_id: linked.id, company_id: company.id })
        expect((await engine.bankAccounts.list(actor, company.id)).data).toEqual([linked, euro])
        const events = await harness.reader.eventsOfCompany(company.id)
        expect(events.map((e) => [e.event, e.resource_id])).toEqual([
          ["entity.created", entity.id],
          ["BankAccountEvents::CreatedEvent", linked.id],
          ["PaymentProfileEvents::CreatedEvent", linked.payment_profiles[0]!.id],
          ["BankAccountEvents::CreatedEvent", euro.id],
          ["PaymentProfileEvents::CreatedEvent", euro.payment_profiles[0]!.id],
        ])

        const stranger = await harness.workspace()
        await expectRefusal(
          engine.fundingAccounts.link(stranger, entity.id, {}),
          "not_found",
          "entity_id",
          messages.entityNotFound,
        )
        await expectRefusal(
          engine.fundingAccounts.link(actor, brandId("ent", "ent_unknown"), {}),
          "not_found",
          "entity_id",
          messages.entityNotFound,
        )
        await expectRefusal(
          engine.fundingAccounts.link({ ...actor, scope: "read" }, entity.id, {}),
          "forbidden",
          "base",
          messages.readOnlyKey,
        )
        // The entity is found by its id alone while it lives (the engine then checks its company's workspace).
        const byId = () => storage.transaction((tx) => tx.entities.findActiveById(entity.id))
        expect(await byId()).toMatchObject({ id: entity.id, company_id: company.id, deleted_at: null })
        await engine.entities.delete(actor, company.id, entity.id)
        expect(await byId()).toBeUndefined()
        await expectRefusal(
          engine.fundingAccounts.link(actor, entity.id, {}),
          "not_found",
          "entity_id",
          messages.entityNotFound,
        )
        expect(bankLinker.links).toHaveLength(2)
        expect((await engine.bankAccounts.list(actor, company.id)).meta.total_records).toBe(2)
      },
    },
  ],
}
