import { Effect, Exit } from "effect"
import type { EngineServices } from "./engine-services.ts"
import type { DomainError } from "./errors.ts"
import type { JobHandlerTable } from "./jobs/job-catalogue.ts"
import type { WorkspaceId } from "./model/ids.ts"
import type { Tracing } from "./ports/tracing.ts"
import { makeAccess } from "./services/access/access.ts"
import {
  hostedPageTokenAnswerSecrets,
  makeHostedPageTokenJobs,
  makeHostedPageTokens,
} from "./services/access/hosted-page-tokens.ts"
import { makeIdempotency, makeIdempotencyJobs } from "./services/access/idempotency.ts"
import { makeKeyLifecycle } from "./services/access/key-lifecycle.ts"
import { makeCompanies } from "./services/companies/companies.ts"
import { makeEntities } from "./services/companies/entities.ts"
import { makeFeatures } from "./services/onboardings/features.ts"
import { makeOnboardingAttachments } from "./services/onboardings/onboarding-attachments.ts"
import { makeOnboardings, personAnswerSecrets } from "./services/onboardings/onboardings.ts"
import { makePaymentBatches, makePaymentBatchJobs } from "./services/payments/payment-batches.ts"
import { makePaymentJobs, makePayments } from "./services/payments/payments.ts"
import { makeQuotes } from "./services/payments/quotes.ts"
import { makeBankAccounts } from "./services/recipients/bank-accounts.ts"
import { makeFundingAccounts } from "./services/recipients/funding-accounts.ts"
import { makePaymentMethods } from "./services/recipients/payment-methods.ts"
import { makeRecipients } from "./services/recipients/recipients.ts"
import type { Actor } from "./services/steps/actor.ts"
import { currentKeyedRequest, type KeyedRequests } from "./services/steps/keyed-requests.ts"
import type { ServicePorts } from "./services/steps/service-ports.ts"
import { answerAttributes, spanned, useCaseAttributes, useCaseSpanName } from "./services/steps/trace-spans.ts"
import { runToPromise } from "./services/steps/transaction.ts"
import { makeEvents } from "./services/webhooks/events.ts"
import { makeWebhookDeliveries, makeWebhookDeliveryJobs } from "./services/webhooks/webhook-deliveries.ts"
import { makeWebhookEndpoints, webhookEndpointAnswerSecrets } from "./services/webhooks/webhook-endpoints.ts"
import { makeWebhookEvents } from "./services/webhooks/webhook-events.ts"
import { makeWebhookRecoveries, makeWebhookRecoveryJobs } from "./services/webhooks/webhook-recoveries.ts"
import { makeWorkspaceBranding } from "./services/workspaces/branding.ts"
import { makeTestClocks } from "./services/workspaces/test-clocks.ts"
import { makeTrustedDomains } from "./services/workspaces/trusted-domains.ts"

/*
 * The Effect API of the engine: the registry of its services, built from the ports, and what the
 * Promise facade and the job handlers are made from. `/effect` exports `EngineEffects` and
 * `effectsOf`; the main entry's `Engine` (./engine.ts) names none of it.
 */

/** One use case: any parameters, an effect that fails only with a domain error. */
type UseCase = (...args: never[]) => Effect.Effect<unknown, DomainError>

/** The use cases of one service, by name. */
type UseCases = { readonly [name: string]: UseCase }

/** The same use cases, returning promises that reject with the domain error. */
export type Promised<S extends UseCases> = {
  readonly [K in keyof S]: (...args: Parameters<S[K]>) => Promise<Effect.Effect.Success<ReturnType<S[K]>>>
}

/**
 * The registry: every service of the engine, under the name it has on the engine. Adding a
 * service is one line here; the Effect API, the Promise facade and the {@link Engine} type all
 * derive from it. A function of the ports rather than a table of constructors, so that a service
 * built from another would be written as plainly as the rest.
 */
export const makeEffectApi = (ports: ServicePorts, keyedRequests: KeyedRequests) => {
  return {
    /** Workspaces, API keys, the check of a key and secret, and stored settings. */
    access: { ...makeAccess(ports), ...makeKeyLifecycle(ports) },
    companies: makeCompanies(ports),
    entities: makeEntities(ports),
    /** Entity features (the multi-currency account): enable, list, the person's submission, and the sandbox's status changes. */
    features: makeFeatures(ports),
    /** An entity's onboarding data (business details, addresses, identifiers, contact) and its persons. */
    onboardings: makeOnboardings(ports),
    onboardingAttachments: makeOnboardingAttachments(ports),
    recipients: makeRecipients(ports),
    /** The `Idempotency-Key` records of a binding: begin, complete, abandon. */
    idempotency: makeIdempotency(ports, keyedRequests, [
      webhookEndpointAnswerSecrets,
      hostedPageTokenAnswerSecrets,
      personAnswerSecrets,
    ]),
    paymentMethods: makePaymentMethods(ports),
    bankAccounts: makeBankAccounts(ports),
    fundingAccounts: makeFundingAccounts(ports),
    /** Hosted-page tokens: issue them for a recipient, a feature application or funding accounts; verify them. */
    hostedPageTokens: makeHostedPageTokens(ports),
    quotes: makeQuotes(ports),
    payments: makePayments(ports),
    /** Payment batches: create, list, fetch, process. */
    paymentBatches: makePaymentBatches(ports),
    /** The delivery log of webhook endpoints, its resends, and an endpoint's test delivery. */
    webhookDeliveries: makeWebhookDeliveries(ports),
    /** Recoveries of an endpoint's failed deliveries: recover (a job), get. */
    webhookRecoveries: makeWebhookRecoveries(ports),
    /** Sandbox mode: each workspace's test clock, its time and its moves. */
    testClocks: makeTestClocks(ports),
    /** The workspace's trusted return domains (hosted-page `return_url`): replace the list, read it. */
    trustedDomains: makeTrustedDomains(ports),
    /** The workspace's branding of its hosted pages: display name, logo URL, accent colour. */
    workspaceBranding: makeWorkspaceBranding(ports),
    /** Webhook endpoints: create (the secret shown once), get, list, update, toggle, delete. */
    webhookEndpoints: makeWebhookEndpoints(ports),
    /** The catalogue of webhook events an endpoint may subscribe to. */
    webhookEvents: makeWebhookEvents(),
    /** The workspace's events (the outbox), with the payloads their webhooks carry: list, get. */
    events: makeEvents(ports),
  }
}

/** The engine's use cases as effects, for teams that build with Effect. */
export type EngineEffects = ReturnType<typeof makeEffectApi>

/**
 * The handler of every background job kind, built from the same ports as the use cases. A job
 * acts for no actor, so its handler is not on the engine: the engine hands these to its runner.
 */
export const makeJobHandlerTable = (ports: ServicePorts): JobHandlerTable => {
  const payments = makePaymentJobs(ports)
  const paymentBatches = makePaymentBatchJobs(ports)
  const webhookDeliveries = makeWebhookDeliveryJobs(ports)
  const idempotency = makeIdempotencyJobs(ports)
  const hostedPageTokens = makeHostedPageTokenJobs(ports)
  const webhookRecoveries = makeWebhookRecoveryJobs(ports)
  return {
    execute_payment: (payload) => payments.execute(payload.payment_id, payload.workspace_id),
    execute_batch_payments: (payload, run) =>
      paymentBatches.runLane(payload.batch_id, payload.workspace_id, payload.payment_ids, run),
    process_batch: (payload) => paymentBatches.start(payload.batch_id, payload.workspace_id),
    expire_batch: (payload) => paymentBatches.expire(payload.batch_id, payload.workspace_id),
    deliver_webhook: (payload) =>
      webhookDeliveries.deliver(payload.delivery_id, payload.workspace_id, payload.attempt_count),
    recover_webhook_deliveries: (payload) => webhookRecoveries.recoverPage(payload.recovery_id, payload.workspace_id),
    purge_idempotency: () => idempotency.purgeExpired(),
    purge_used_hosted_page_tokens: () => hostedPageTokens.purgeUsed(),
    settle_unknown_payments: () => payments.settleUnknown(),
  }
}

/** The actor a use case was called with, when its first argument is one that names an `Idempotency-Key`. */
const keyedActorOf = (args: ReadonlyArray<unknown>) => {
  const first = args[0]
  if (typeof first !== "object" || first === null) return undefined
  const { workspaceId, idempotencyKey } = first as Partial<Actor>
  return typeof workspaceId === "string" && typeof idempotencyKey === "string"
    ? { workspaceId, idempotencyKey }
    : undefined
}

/**
 * The registry with each use case (but the idempotency service's own) run inside the keyed
 * request its actor names, so its transactions are journaled with the key. An actor naming a key
 * this engine has not claimed is a defect: the work would run unguarded.
 */
export const withKeyedRequests = <E extends { readonly [S in keyof E]: UseCases }>(
  effects: E,
  keyedRequests: KeyedRequests,
): E => {
  const wrapped: Record<string, UseCases> = {}
  for (const [service, useCases] of Object.entries<UseCases>(effects)) {
    if (service === "idempotency") {
      wrapped[service] = useCases
      continue
    }
    const keyed: Record<string, UseCase> = {}
    for (const [name, useCase] of Object.entries(useCases)) {
      keyed[name] = (...args) => {
        const actor = keyedActorOf(args)
        if (actor === undefined) return useCase(...args)
        const request = keyedRequests.of(actor.workspaceId as WorkspaceId, actor.idempotencyKey)
        if (request === undefined) {
          return Effect.die(new Error(`idempotency key ${actor.idempotencyKey} was not claimed by idempotency.begin`))
        }
        return Effect.locally(useCase(...args), currentKeyedRequest, request)
      }
    }
    wrapped[service] = keyed
  }
  return wrapped as E
}

/**
 * The registry with each use case run in a span of its own (`payments.<service>.<use case>`),
 * started under the context its caller is in when it is called (the HTTP request's span), with
 * the actor's workspace and the ids among its arguments and its answer. The idempotency
 * service's arguments are keys a client chose, not ids: they are not read.
 */
export const withUseCaseSpans = <E extends { readonly [S in keyof E]: UseCases }>(effects: E, tracing: Tracing): E => {
  const wrapped: Record<string, UseCases> = {}
  for (const [service, useCases] of Object.entries<UseCases>(effects)) {
    const traced: Record<string, UseCase> = {}
    for (const [name, useCase] of Object.entries(useCases)) {
      const spanName = useCaseSpanName(service, name)
      traced[name] = (...args) =>
        spanned(
          tracing,
          tracing.active(),
          spanName,
          {
            attributes: useCaseAttributes(args, service !== "idempotency"),
            ended: (exit) => (Exit.isSuccess(exit) ? answerAttributes(exit.value) : undefined),
          },
          () => useCase(...args),
        )
    }
    wrapped[service] = traced
  }
  return wrapped as E
}

/** Every service of the registry as promises. */
export type PromisedServices<E extends { readonly [S in keyof E]: UseCases }> = {
  readonly [S in keyof E]: Promised<E[S]>
}

/**
 * The Promise facade of every service. The loop cannot be typed member by member, so its result
 * is asserted once: each use case is the registry's own, run by {@link runToPromise}, which is
 * what {@link Promised} states.
 */
export const promisedServices = <E extends { readonly [S in keyof E]: UseCases }>(effects: E): PromisedServices<E> => {
  const facade: Record<string, Record<string, (...args: never[]) => Promise<unknown>>> = {}
  for (const [service, useCases] of Object.entries<UseCases>(effects)) {
    const promised: Record<string, (...args: never[]) => Promise<unknown>> = {}
    for (const [name, useCase] of Object.entries(useCases)) {
      promised[name] = (...args) => runToPromise(useCase(...args))
    }
    facade[service] = promised
  }
  return facade as PromisedServices<E>
}

/** The Effect API of each engine {@link createEngine} made, for {@link effectsOf}. */
const effectsByEngine = new WeakMap<EngineServices, EngineEffects>()

/** Remembers the Effect API an engine's Promise facade runs, for {@link effectsOf}. */
export const rememberEffects = (engine: EngineServices, effects: EngineEffects): void => {
  effectsByEngine.set(engine, effects)
}

/**
 * The engine's use cases as effects, for teams that build with Effect: the same use cases as the
 * engine's promises, failing with the domain error classes instead of rejecting. Throws a
 * TypeError for an object `createEngine` did not make.
 *
 * @example
 * const company = yield* effectsOf(engine).companies.get(actor, cid)
 */
export const effectsOf = (engine: EngineServices): EngineEffects => {
  const effects = effectsByEngine.get(engine)
  if (effects === undefined) throw new TypeError("effectsOf: this engine was not made by createEngine")
  return effects
}
