import { sandboxExamples, sandboxTestBanks, sandboxUsdRates } from "@payments-engine/adapters"
import { defaultFeeSchedule, type FeeRule } from "@payments-engine/core"

/**
 * The README's "Sandbox test values" tables, generated from the sandbox's own data
 * (`sandboxTestBanks`, `sandboxExamples`, `sandboxUsdRates`) and the core's default fee schedule,
 * so a test can hold the README to them. Print them with
 * `node --conditions=source --import tsx -e 'import("./packages/http-koa/test/support/readme-tables.ts").then((m) => console.log(m.sandboxValueTables()))'`.
 */

const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>) =>
  [row(header), row(header.map(() => "---")), ...rows.map(row)].join("\n")
const code = (value: string) => `\`${value}\``

/** The test banks a sandbox funding account can be linked at. */
export const testBanksTable = (): string =>
  table(
    ["`institution_id`", "Bank", "Routing (ABA)", "Account"],
    sandboxTestBanks.map((bank, index) => [
      `${code(bank.id)}${index === 0 ? " (default)" : ""}`,
      bank.name,
      code(bank.routingNumber),
      code(bank.accountNumber),
    ]),
  )

const routingOf = (details: Readonly<Record<string, string | undefined>>) =>
  [1, 2]
    .map((n) => [details[`account_routing_type${n}`], details[`account_routing_value${n}`]] as const)
    .filter(([type, value]) => type !== undefined && value !== undefined)
    .map(([type, value]) => `${type} ${code(value as string)}`)

/** Valid `bank_details` values per bank country and method (`sandboxExamples`, exported by the adapters). */
export const exampleAccountsTable = (): string =>
  table(
    ["Example", "Currency", "Account number", "Routing"],
    Object.entries(sandboxExamples).map(([name, example]) => {
      const bank = example.bank_details as unknown as Readonly<Record<string, string | undefined>>
      return [
        code(name),
        example.bank_details.account_currency,
        code(example.bank_details.account_number),
        routingOf(bank).join(", ") || "none",
      ]
    }),
  )

const describeRule = (rule: FeeRule) => {
  const fixed = Object.entries(rule.fixed).map(([currency, amount]) => `${amount} ${currency}`)
  const parts = [...(fixed.length === 0 ? [] : [fixed.join(" / ")])]
  if (rule.basisPoints > 0) parts.push(`${(rule.basisPoints / 100).toFixed(2)} %`)
  return parts.length === 0 ? "none" : parts.join(" + ")
}

/** The default fee schedule (core `rules/fee-schedule.ts`) by the recipient profile's payment method. */
export const feeScheduleTable = (): string =>
  table(
    ["Payment method", "Fee (in the source currency)"],
    [
      ...Object.entries(defaultFeeSchedule.methods).map(([method, rule]) => [method, describeRule(rule)]),
      ["any other", describeRule(defaultFeeSchedule.other)],
    ],
  )

/** The sentence of FX rates and margin. */
export const fxSentence = (): string =>
  `Mid rates are fixed, in units per US dollar: ${Object.entries(sandboxUsdRates)
    .filter(([currency]) => currency !== "USD")
    .map(([currency, rate]) => `${currency} ${rate}`)
    .join(", ")}. A quote's rate is the mid rate less the FX margin of ${(
    defaultFeeSchedule.fxMarginBasisPoints / 100
  ).toFixed(2)} % (${defaultFeeSchedule.fxMarginBasisPoints} basis points), to 8 decimals.`

/** Every generated part, in README order. */
export const sandboxValueTables = (): string =>
  [testBanksTable(), exampleAccountsTable(), feeScheduleTable(), fxSentence()].join("\n\n")
