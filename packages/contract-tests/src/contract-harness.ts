import {
  type Actor,
  type BatchExecution,
  type CompanyId,
  createEngine,
  createJobHandlers,
  type DomainError,
  type Engine,
  type EngineOptions,
  type EntityId,
  type ErrorKind,
  type Feature,
  isDomainError,
  type JobHandlers,
  type JobTable,
  type Storage,
} from "@payments-engine/core"
import { expect } from "vitest"
import type { ContractReader } from "./contract-reader.ts"
import {
  counterIds,
  nextNumber,
  plainHasher,
  processTag,
  type TestBlobStore,
  type TestClock,
  testBlobStore,
  testClock,
  testFileTypeDetector,
  testServerSecret,
} from "./test-ports.ts"
import { type TestBankLinker, type TestPaymentProvider, testBankLinker, testPaymentProvider } from "./test-providers.ts"

/** What one test works with: the storage under test and an engine built on it. */
export interface Harness {
  readonly storage: Storage
  /** The adapter author's direct reads of what the storage committed. */
  readonly reader: ContractReader
  /** The storage's job table, when the suite was given one (`jobTable`): the `job-table.*` tests use it. */
  readonly jobTable: JobTable | undefined
  readonly engine: Engine
  /** The handlers of the engine's background jobs, to run one job kind now (`run(kind, payload)`). */
  readonly jobHandlers: JobHandlers
  readonly clock: TestClock
  /** A workspace no other test uses, and a `write` actor in it. */
  workspace(): Promise<Actor>
  /** A name no other test uses (workspaces, settings, API keys), readable in a failure. */
  uniqueName(label: string): string
  /**
   * Another engine on the same storage with its own clock and ids, as a second process sharing
   * the database would have.
   */
  secondEngine(): Engine
  /**
   * An engine over another storage (the one under test, wrapped to fail on purpose) with this
   * harness's clock, ids and providers.
   */
  engineOn(storage: Storage): Engine
  /**
   * An engine in sandbox mode on the same storage, clock, ids and providers: each workspace has
   * its own test clock, kept in the storage. Each call is a new engine, as a restart would be.
   */
  sandboxEngine(): Engine
  /**
   * An engine on the same storage, clock, ids and providers whose batches run with `execution`
   * (lanes and start rate) instead of the suite's: 5 lanes and no rate limit.
   */
  batchEngine(execution: Partial<BatchExecution>): Engine
  /** The engines' payment provider, which records what it was asked to pay. */
  readonly paymentProvider: TestPaymentProvider
  /** The engines' bank linker, which records what it linked. */
  readonly bankLinker: TestBankLinker
  /** The engines' blob store (in memory), which keeps the bytes of onboarding attachments. */
  readonly blobStore: TestBlobStore
}

/**
 * How the suite's engines run batches: the engine's lanes, without its rate limit. The test clock
 * stands still, so a batch payment's start slot would be ever further ahead of it and the engine
 * would wait for it in real time; the slots themselves are checked on the port
 * (`batches.start-slots`) and by an engine of a high rate (`batches.process-and-complete`).
 */
const suiteBatchExecution: Partial<BatchExecution> = { perSecond: Number.POSITIVE_INFINITY }

/** Builds the engine of one test on a storage from the factory. */
export const openHarness = (storage: Storage, reader: ContractReader, jobTable?: JobTable): Harness => {
  const clock = testClock()
  const paymentProvider = testPaymentProvider()
  const bankLinker = testBankLinker()
  const blobStore = testBlobStore()
  const ids = counterIds()
  /** The options of an engine of the test's providers and test ports, on `storage` unless told otherwise. */
  const optionsWith = (options: Partial<EngineOptions> = {}): EngineOptions => ({
    storage,
    clock,
    ids,
    hasher: plainHasher,
    serverSecret: testServerSecret,
    paymentProvider,
    bankLinker,
    blobStore,
    fileTypeDetector: testFileTypeDetector,
    batchExecution: suiteBatchExecution,
    ...options,
  })
  const engineWith = (options: Partial<EngineOptions> = {}) => createEngine(optionsWith(options))
  const engine = engineWith()
  const uniqueName = (label: string) => `contract-${label}-${processTag}-${nextNumber()}`
  return {
    storage,
    reader,
    jobTable,
    engine,
    jobHandlers: createJobHandlers(optionsWith()),
    paymentProvider,
    bankLinker,
    blobStore,
    clock,
    uniqueName,
    workspace: async () => {
      const workspace = await engine.access.ensureWorkspace(uniqueName("ws"))
      return { workspaceId: workspace.id, scope: "write" }
    },
    secondEngine: () => engineWith({ clock: testClock(clock.now()), ids: counterIds(`${processTag}b`) }),
    engineOn: (other) => engineWith({ storage: other }),
    sandboxEngine: () => engineWith({ testClocks: true }),
    batchEngine: (execution) => engineWith({ batchExecution: { ...suiteBatchExecution, ...execution } }),
  }
}

/** The domain error a refused call rejects with; fails the test when the call succeeds. */
export const refusal = async (call: Promise<unknown>): Promise<DomainError> => {
  let value: unknown
  try {
    value = await call
  } catch (error) {
    if (isDomainError(error)) return error
    throw error
  }
  throw new Error(`expected the engine to refuse, but it answered ${JSON.stringify(value)}`)
}

/**
 * Asserts that a call is refused with one error: its kind, field and message. The suite speaks
 * kinds, as the engine does; each binding maps a kind to its own code (the HTTP one to the
 * spec's status).
 *
 * @example
 * await expectRefusal(engine.companies.get(actor, CompanyId.make("cmp_x")), "not_found", "id", messages.companyNotFound)
 */
export const expectRefusal = async (
  call: Promise<unknown>,
  kind: ErrorKind,
  field: string,
  message: string,
): Promise<void> => {
  const error = await refusal(call)
  expect({ kind: error.kind, errors: error.errors }).toEqual({ kind, errors: [{ field, message }] })
}

/**
 * Gives an entity an active payment integration the way a client does: enables its
 * multi-currency account and moves the application SUBMITTED, then ACTIVE (the sandbox helper's
 * use case). Returns the ACTIVE feature.
 *
 * @example
 * await activateIntegration(engine, actor, cid, eid)
 */
export const activateIntegration = async (
  engine: Engine,
  actor: Actor,
  companyId: CompanyId,
  entityId: EntityId,
): Promise<Feature> => {
  const { feature } = await engine.features.enable(actor, companyId, entityId, {
    feature_identifier: "multi_currency_account",
  })
  await engine.features.setStatus(actor, feature.application_id, "SUBMITTED")
  return engine.features.setStatus(actor, feature.application_id, "ACTIVE")
}
