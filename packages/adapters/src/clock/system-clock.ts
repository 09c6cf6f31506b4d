import type { Clock } from "@payments-engine/core"

/**
 * The machine's wall clock.
 *
 * @example
 * const engine = createEngine({
 *   storage, clock: systemClock, ids: randomIds(), hasher: scryptHasher(), serverSecret: { read: async () => secret },
 *   paymentProvider: createSandboxPaymentProvider(), bankLinker: createSandboxBankLinker(),
 * })
 */
export const systemClock: Clock = {
  now: () => new Date(),
}
