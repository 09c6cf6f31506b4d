import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { attachmentFileNameMaxLength, sanitisedFileName } from "./onboarding-attachment.ts"

describe("sanitisedFileName", () => {
  it.each([
    ["statement.pdf", "statement.pdf"],
    ["C:\\Users\\me\\statement.pdf", "statement.pdf"],
    ["../../etc/passwd", "passwd"],
    ["dir/", "attachment"],
    ["..", "attachment"],
    ["  \u0000\u001b ", "attachment"],
    ['a"b\r\nc.png', "abc.png"],
    ["invoice\u202Efdp.exe", "invoicefdp.exe"],
    ["Relevé «mars».pdf", "Relevé «mars».pdf"],
  ])("keeps %j as %j", (name, kept) => {
    expect(sanitisedFileName(name)).toBe(kept)
  })

  it("keeps the end of a long name, where the extension is", () => {
    const kept = sanitisedFileName(`${"x".repeat(300)}.pdf`)
    expect(kept).toHaveLength(attachmentFileNameMaxLength)
    expect(kept.endsWith(".pdf")).toBe(true)
  })

  it("never answers a name with a separator, a control character or a quote, nor an empty or overlong one", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (name) => {
        const kept = sanitisedFileName(name)
        expect(kept).not.toMatch(/[/\\"\p{Cc}]/u)
        expect(kept.length).toBeGreaterThan(0)
        expect([...kept].length).toBeLessThanOrEqual(attachmentFileNameMaxLength)
        expect([".", ".."]).not.toContain(kept)
      }),
    )
  })
})
