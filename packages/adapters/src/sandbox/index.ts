export {
  type SandboxAddress,
  type SandboxBeneficiaryDetails,
  type SandboxExampleName,
  sandboxBeneficiaryDetails,
  sandboxExamples,
  sandboxTestAccounts,
  sandboxTestAddresses,
} from "./sandbox-examples.ts"
export {
  createSandboxPaymentProvider,
  isSandboxFailureAmount,
  type SandboxFailure,
  type SandboxPaymentProvider,
  type SandboxPaymentProviderOptions,
  type SandboxProviderMethod,
  type SandboxSubmittedPayment,
  sandboxFailureReason,
  sandboxUsdRates,
} from "./sandbox-payment-provider.ts"
export { sandboxCountries, sandboxPaymentMethods, sandboxRequirements } from "./sandbox-requirements.ts"
export type { SandboxCountryRow, SandboxFieldRow, SandboxMethodRow } from "./sandbox-requirements-table.ts"
