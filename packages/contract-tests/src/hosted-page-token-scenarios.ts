import type { Repositories, UsedHostedPageTokenRecord } from "@payments-engine/core"
import { hostedPageTokenMessages } from "@payments-engine/core/effect"
import { expect } from "vitest"
import { expectRefusal } from "./contract-harness.ts"
import type { ScenarioGroup } from "./contract-scenario.ts"
import { payingCompany } from "./payment-fixtures.ts"
import { testBeneficiary } from "./test-providers.ts"

/** Hosted-page tokens used up by their task: once, in the task's transaction. */
export const hostedPageTokenScenarios: ScenarioGroup = {
  title: "hosted-page tokens",
  scenarios: [
    {
      id: "hosted-page-tokens.used-once",
      title:
        "a recipient token adds one bank account and is used up in the same transaction: used again it is refused with nothing stored, a rolled-back mark leaves it unused, of racing marks exactly one wins, and the purge forgets it once expired",
      run: async (harness) => {
        const { engine, jobHandlers, storage, clock } = harness
        const { actor, company, entity, recipient } = await payingCompany(harness)
        const issued = await engine.hostedPageTokens.createForEntity(actor, company.id, entity.id, {
          purpose: "recipient_add_bank_account",
          recipient_id: recipient.id,
        })
        const checked = await engine.hostedPageTokens.verify(issued.token)
        if (!checked.valid) throw new Error(`a fresh token was refused: ${checked.reason}`)
        const { claims } = checked
        const body = { entity_id: entity.id, beneficiary_details: testBeneficiary }
        const accountsOf = async () => (await engine.recipients.get(actor, company.id, recipient.id)).bank_accounts

        const before = (await accountsOf()).length
        await engine.bankAccounts.createForRecipient(actor, company.id, recipient.id, body, { usingToken: claims })
        expect(await accountsOf()).toHaveLength(before + 1)
        expect(await engine.hostedPageTokens.verify(issued.token)).toEqual({ valid: false, reason: "used" })
        expect(await engine.hostedPageTokens.verify(issued.token, { acceptUsed: true })).toEqual(checked)
        await expectRefusal(
          engine.bankAccounts.createForRecipient(actor, company.id, recipient.id, body, { usingToken: claims }),
          "unauthenticated",
          "token",
          hostedPageTokenMessages.tokenUsedUp,
        )
        expect(await accountsOf()).toHaveLength(before + 1)

        const row = (tokenId: string): UsedHostedPageTokenRecord => ({
          token_id: tokenId,
          workspace_id: actor.workspaceId,
          used_at: clock.now().toISOString(),
          expires_at: new Date(clock.now().getTime() + 7_200_000).toISOString(),
        })
        const isUsed = (tokenId: string) =>
          storage.transaction((tx: Repositories) => tx.usedHostedPageTokens.isUsed(tokenId))
        const reason = new Error("rolled back on purpose")
        await expect(
          storage.transaction(async (tx) => {
            expect(await tx.usedHostedPageTokens.markUsed(row("hpt_rolled_back"))).toBe(true)
            throw reason
          }),
        ).rejects.toBe(reason)
        expect(await isUsed("hpt_rolled_back")).toBe(false)
        expect(await isUsed(claims.tokenId)).toBe(true)

        const raced = await Promise.all(
          [0, 1, 2].map(() => storage.transaction((tx) => tx.usedHostedPageTokens.markUsed(row("hpt_raced")))),
        )
        expect(raced.filter(Boolean)).toHaveLength(1)
        expect(await isUsed("hpt_raced")).toBe(true)

        // Once expired, a used token needs no record: the hourly purge forgets it, and no sooner.
        await jobHandlers.run("purge_used_hosted_page_tokens", {})
        expect(await isUsed(claims.tokenId)).toBe(true)
        expect(await isUsed("hpt_raced")).toBe(true)
        clock.advance(7_200_000)
        await jobHandlers.run("purge_used_hosted_page_tokens", {})
        expect(await isUsed(claims.tokenId)).toBe(false)
        expect(await isUsed("hpt_raced")).toBe(false)
        expect(await engine.hostedPageTokens.verify(issued.token)).toEqual({ valid: false, reason: "expired" })
      },
    },
  ],
}
