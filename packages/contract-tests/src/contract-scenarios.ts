import { accessScenarios } from "./access-scenarios.ts"
import { bankAccountScenarios } from "./bank-account-scenarios.ts"
import { batchModelScenarios } from "./batch-model-run.ts"
import { batchScenarios } from "./batch-scenarios.ts"
import { companyScenarios } from "./company-scenarios.ts"
import { concurrencyScenarios } from "./concurrency-scenarios.ts"
import type { ContractScenario, ScenarioGroup } from "./contract-scenario.ts"
import { entityScenarios } from "./entity-scenarios.ts"
import { featureConcurrencyScenarios, featureScenarios } from "./feature-scenarios.ts"
import { hostedPageTokenScenarios } from "./hosted-page-token-scenarios.ts"
import { idempotencyScenarios } from "./idempotency-scenarios.ts"
import { jobScenarios, moneyConcurrencyScenarios } from "./job-scenarios.ts"
import { jobTableScenarios } from "./job-table-scenarios.ts"
import { modelScenarios } from "./model-run.ts"
import { onboardingModelScenarios } from "./onboarding-model-run.ts"
import { onboardingScenarios } from "./onboarding-scenarios.ts"
import { pagingScenarios } from "./paging-scenarios.ts"
import { paymentModelScenarios } from "./payment-model-run.ts"
import { paymentScenarios } from "./payment-scenarios.ts"
import { quoteScenarios } from "./quote-scenarios.ts"
import { recipientScenarios } from "./recipient-scenarios.ts"
import { storageScenarios } from "./storage-scenarios.ts"
import { storedRowScenarios } from "./stored-row-scenarios.ts"
import { testClockScenarios } from "./test-clock-scenarios.ts"
import { trustedDomainScenarios } from "./trusted-domain-scenarios.ts"
import { webhookEndpointScenarios } from "./webhook-endpoint-scenarios.ts"
import { webhookRecoveryScenarios } from "./webhook-recovery-scenarios.ts"
import { workspaceBrandingScenarios } from "./workspace-branding-scenarios.ts"

/** Every group of the suite, in the order they run. */
export const scenarioGroups: ReadonlyArray<ScenarioGroup> = [
  storageScenarios,
  companyScenarios,
  entityScenarios,
  recipientScenarios,
  idempotencyScenarios,
  accessScenarios,
  concurrencyScenarios,
  bankAccountScenarios,
  quoteScenarios,
  paymentScenarios,
  batchScenarios,
  webhookEndpointScenarios,
  webhookRecoveryScenarios,
  onboardingScenarios,
  pagingScenarios,
  storedRowScenarios,
  jobScenarios,
  jobTableScenarios,
  testClockScenarios,
  trustedDomainScenarios,
  workspaceBrandingScenarios,
  hostedPageTokenScenarios,
  moneyConcurrencyScenarios,
  featureScenarios,
  featureConcurrencyScenarios,
  modelScenarios,
  paymentModelScenarios,
  batchModelScenarios,
  onboardingModelScenarios,
]

/** Every scenario of the suite. */
export const contractScenarios: ReadonlyArray<ContractScenario> = scenarioGroups.flatMap((group) => group.scenarios)
