import { brandId } from "@payments-engine/core"
import { describe, expect, it } from "vitest"
import { createSandboxBankLinker, sandboxTestBanks } from "./sandbox-bank-linker.ts"

const [ba1, ba2] = [brandId("ba", "ba_1"), brandId("ba", "ba_2")]
const ent1 = brandId("ent", "ent_1")

describe("the sandbox bank linker", () => {
  it("links an ACH account at the chosen test bank, masked", async () => {
    const linker = createSandboxBankLinker()
    const account = await linker.link({ reference: ba1, entityId: ent1, institutionId: "sandbox_tartan" })
    expect(account).toMatchObject({
      institutionName: "Tartan Bank",
      accountNumberMask: "****1111",
      routingNumber: "021000021",
      routingNumberType: "aba",
      currency: "USD",
      paymentMethod: "ach",
    })
    expect(JSON.stringify(account)).not.toContain(sandboxTestBanks[1]!.accountNumber)
  })

  it("returns the same connection for the same reference, another for another", async () => {
    const linker = createSandboxBankLinker()
    const a = await linker.link({ reference: ba1, entityId: ent1 })
    expect(await linker.link({ reference: ba1, entityId: ent1 })).toEqual(a)
    expect((await linker.link({ reference: ba2, entityId: ent1 })).connectionId).not.toBe(a.connectionId)
    expect(a.institutionName).toBe(sandboxTestBanks[0]!.name)
  })

  it("refuses unknown banks and fails once when told to", async () => {
    const linker = createSandboxBankLinker()
    await expect(linker.link({ reference: ba1, entityId: ent1, institutionId: "nope" })).rejects.toThrow(/Unknown/)
    linker.failNext("link", new Error("bank down"))
    await expect(linker.link({ reference: ba1, entityId: ent1 })).rejects.toThrow("bank down")
    await expect(linker.link({ reference: ba1, entityId: ent1 })).resolves.toMatchObject({ currency: "USD" })
    const [connection] = linker.linkedConnections()
    await linker.unlink(connection!)
    expect(linker.linkedConnections()).toEqual([])
  })
})
