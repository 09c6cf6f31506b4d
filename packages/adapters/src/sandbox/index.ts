export { sandboxExamples } from "./sandbox-examples.ts"
export {
  createSandboxPaymentProvider,
  isSandboxFailureAmount,
  type SandboxPaymentProvider,
  type SandboxPaymentProviderOptions,
  sandboxUsdRates,
} from "./sandbox-payment-provider.ts"
export { sandboxCountries, sandboxPaymentMethods, sandboxRequirements } from "./sandbox-requirements.ts"
