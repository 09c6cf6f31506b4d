import { Arbitrary, Effect, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { EventRecord, Repositories } from "../ports/storage/index.ts"
import {
  appendEvents,
  bankAccountEventPayload,
  entityEventPayload,
  paymentBatchEventPayload,
  paymentEventPayload,
  paymentProfileEventPayload,
  webhookEndpointEventPayload,
} from "../services/steps/outbox.ts"
import type { EnginePorts } from "../services/steps/service-ports.ts"
import type { Lifted } from "../services/steps/transaction.ts"
import { BankAccount, PaymentProfile } from "./bank-account.ts"
import { Entity } from "./entity.ts"
import {
  EventIsoTimestamp,
  EventUnixSeconds,
  WebhookEndpointDisabledData,
  WebhookEndpointTestData,
  type WebhookEventPayload,
  webhookEventGroups,
  webhookEventNames,
  webhookEventSchemas,
} from "./events.ts"
import { brandId, CompanyId, WorkspaceId } from "./ids.ts"
import { PaymentInstruction } from "./payment.ts"

/**
 * `Arbitrary.make` for this package's fast-check 4: effect bundles fast-check 3, whose arbitraries
 * do not mix with ours, so the arbitrary is built with the module handed to `makeLazy`.
 */
const fromSchema = <A, I, R>(schema: Schema.Schema<A, I, R>): fc.Arbitrary<A> =>
  (Arbitrary.makeLazy(schema) as unknown as (module: typeof fc) => fc.Arbitrary<A>)(fc)

// Years 0000-9999 only: `toISOString` writes others with a sign and six digits.
const now = fc.date({ min: new Date(0), max: new Date("9999-12-31T23:59:59.999Z"), noInvalidDate: true })
const id = fc.string({ minLength: 1, maxLength: 12 })

/** Every payload a builder can make, with the convention its event must follow. */
const anyPayload: fc.Arbitrary<{ payload: WebhookEventPayload; convention: "iso" | "unix" }> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        "PaymentEvents::CompletedEvent",
        "PaymentEvents::FailedEvent",
        "PaymentEvents::CancelledEvent",
        "PaymentEvents::DebitInitiatedEvent",
      ),
      now,
      id,
      fromSchema(PaymentInstruction),
    )
    .map(([name, at, companyId, data]) => ({
      payload: paymentEventPayload(name, { now: at, companyId, data }),
      convention: "iso" as const,
    })),
  fc
    .tuple(
      fc.constantFrom(
        "BankAccountEvents::CreatedEvent",
        "BankAccountEvents::UpdatedEvent",
        "BankAccountEvents::DeletedEvent",
      ),
      now,
      fromSchema(BankAccount),
    )
    .map(([name, at, data]) => ({
      payload: bankAccountEventPayload(name, { now: at, data }),
      convention: "unix" as const,
    })),
  fc
    .tuple(
      fc.constantFrom("PaymentProfileEvents::CreatedEvent", "PaymentProfileEvents::FailedEvent"),
      now,
      fromSchema(PaymentProfile),
    )
    .map(([name, at, data]) => ({
      payload: paymentProfileEventPayload(name, { now: at, data }),
      convention: "unix" as const,
    })),
  fc.tuple(now, id, id).map(([at, companyId, batchId]) => ({
    payload: paymentBatchEventPayload({ now: at, companyId, batchId }),
    convention: "iso" as const,
  })),
  fc
    .tuple(fc.constantFrom("entity.created", "entity.updated", "entity.deleted"), now, fromSchema(Entity))
    .map(([name, at, data]) => ({ payload: entityEventPayload(name, { now: at, data }), convention: "iso" as const })),
  fc.tuple(now, id, fromSchema(WebhookEndpointDisabledData)).map(([at, companyId, data]) => ({
    payload: webhookEndpointEventPayload("WebhookEndpointEvents::DisabledEvent", { now: at, companyId, data }),
    convention: "iso" as const,
  })),
  fc.tuple(now, id, fromSchema(WebhookEndpointTestData)).map(([at, companyId, data]) => ({
    payload: webhookEndpointEventPayload("WebhookEndpointEvents::TestEvent", { now: at, companyId, data }),
    convention: "iso" as const,
  })),
)

/** A transaction whose outbox is an array and whose companies have no webhook endpoint, enough for `appendEvents`. */
const recordingTx = () => {
  const rows: EventRecord[] = []
  const tx = {
    events: {
      append: (row: EventRecord) => Effect.sync(() => void rows.push(row)),
      appendListingEndpoints: (row: EventRecord) =>
        Effect.sync(() => {
          rows.push(row)
          return []
        }),
    },
  }
  return { rows, tx: tx as unknown as Lifted<Repositories> }
}
const workspaceId = WorkspaceId.make("ws_1")
const companyId = CompanyId.make("co_1")
const ports: Pick<EnginePorts, "ids" | "clock"> = {
  ids: { next: (prefix) => brandId(prefix, `${prefix}_1`) },
  clock: { now: () => new Date("2026-03-04T05:06:07.089Z") },
}

describe("webhook event catalogue", () => {
  it("lists every event kind of the spec once, grouped by category in the spec's order", () => {
    expect(webhookEventGroups).toEqual([
      {
        category: "PaymentEvents",
        events: [
          "PaymentEvents::CompletedEvent",
          "PaymentEvents::FailedEvent",
          "PaymentEvents::CancelledEvent",
          "PaymentEvents::DebitInitiatedEvent",
        ],
      },
      {
        category: "BankAccountEvents",
        events: [
          "BankAccountEvents::CreatedEvent",
          "BankAccountEvents::UpdatedEvent",
          "BankAccountEvents::DeletedEvent",
        ],
      },
      {
        category: "PaymentProfileEvents",
        events: ["PaymentProfileEvents::CreatedEvent", "PaymentProfileEvents::FailedEvent"],
      },
      { category: "PaymentBatchEvents", events: ["PaymentBatchCompletedEvent"] },
      { category: "EntityEvents", events: ["entity.created", "entity.updated", "entity.deleted"] },
      {
        category: "WebhookEndpointEvents",
        events: ["WebhookEndpointEvents::DisabledEvent", "WebhookEndpointEvents::TestEvent"],
      },
    ])
    expect(new Set(webhookEventNames).size).toBe(webhookEventNames.length)
    expect(Object.keys(webhookEventSchemas).sort()).toEqual([...webhookEventNames].sort())
  })

  it("gives each event a schema whose `event` is its own name", () => {
    for (const name of webhookEventNames) {
      const eventField: Schema.Schema.AnyNoContext = webhookEventSchemas[name].fields.event
      const literal = Schema.decodeUnknownEither(eventField)
      expect(literal(name)._tag, name).toBe("Right")
      const other = webhookEventNames.find((n) => n !== name)!
      expect(literal(other)._tag, name).toBe("Left")
    }
  })

  it("makes payloads that decode with their event's schema, with the timestamp convention of their kind", () => {
    fc.assert(
      fc.property(anyPayload, ({ payload, convention }) => {
        const schema: Schema.Schema.AnyNoContext = webhookEventSchemas[payload.event]
        const wire = JSON.parse(JSON.stringify(Schema.encodeUnknownSync(schema)(payload)))
        expect(Schema.decodeUnknownEither(schema)(wire)._tag).toBe("Right")
        if (convention === "iso") {
          expect(Schema.is(EventIsoTimestamp)(wire.timestamp)).toBe(true)
          expect(Schema.is(EventUnixSeconds)(wire.timestamp)).toBe(false)
        } else {
          expect(Schema.is(EventUnixSeconds)(wire.timestamp)).toBe(true)
        }
      }),
    )
  })

  it("stamps ISO events with the instant and Unix events with its whole seconds", () => {
    const at = new Date("2026-01-02T03:04:05.999Z")
    const account = fc.sample(fromSchema(BankAccount), 1)[0]!
    expect(bankAccountEventPayload("BankAccountEvents::DeletedEvent", { now: at, data: account }).timestamp).toBe(
      1767323045,
    )
    const payment = fc.sample(fromSchema(PaymentInstruction), 1)[0]!
    expect(paymentEventPayload("PaymentEvents::CompletedEvent", { now: at, companyId: "co_1", data: payment })).toEqual(
      {
        event: "PaymentEvents::CompletedEvent",
        timestamp: "2026-01-02T03:04:05.999Z",
        company_id: "co_1",
        resource_id: payment.id,
        data: payment,
      },
    )
    const entity = fc.sample(fromSchema(Entity), 1)[0]!
    expect(entityEventPayload("entity.deleted", { now: at, data: entity })).toMatchObject({
      timestamp: "2026-01-02T03:04:05.999Z",
      company_id: entity.company_id,
      resource_id: entity.id,
    })
    const profile = fc.sample(fromSchema(PaymentProfile), 1)[0]!
    expect(paymentProfileEventPayload("PaymentProfileEvents::FailedEvent", { now: at, data: profile }).timestamp).toBe(
      1767323045,
    )
    expect(paymentBatchEventPayload({ now: at, companyId: "co_1", batchId: "pb_1" })).toEqual({
      event: "PaymentBatchCompletedEvent",
      timestamp: "2026-01-02T03:04:05.999Z",
      company_id: "co_1",
      resource_id: "pb_1",
      actor_id: null,
    })
  })

  it("refuses a payload whose timestamp breaks its event's convention", () => {
    const profile = fc.sample(fromSchema(PaymentProfile), 1)[0]!
    const decode = Schema.decodeUnknownEither(webhookEventSchemas["PaymentProfileEvents::CreatedEvent"])
    expect(decode({ event: "PaymentProfileEvents::CreatedEvent", timestamp: 1767323045, data: profile })._tag).toBe(
      "Right",
    )
    for (const timestamp of ["2026-01-02T03:04:05.999Z", 1767323045.5, -1]) {
      expect(decode({ event: "PaymentProfileEvents::CreatedEvent", timestamp, data: profile })._tag).toBe("Left")
    }
    const entity = fc.sample(fromSchema(Entity), 1)[0]!
    const decodeEntity = Schema.decodeUnknownEither(webhookEventSchemas["entity.updated"])
    for (const timestamp of [1767323045, "2026-01-02 03:04:05", "yesterday"]) {
      const body = { event: "entity.updated", timestamp, company_id: "co", resource_id: "en", data: entity }
      expect(decodeEntity(body)._tag).toBe("Left")
    }
  })
})

describe("appendEvents", () => {
  it("stores the wire JSON byte for byte as the hand-built payload was, named by the payload", () => {
    fc.assert(
      fc.property(now, fromSchema(BankAccount), (at, data) => {
        const { rows, tx } = recordingTx()
        const payload = bankAccountEventPayload("BankAccountEvents::CreatedEvent", { now: at, data })
        Effect.runSync(appendEvents(ports, tx, [{ workspaceId, companyId, payload }]))
        expect(rows).toEqual([
          {
            id: "evt_1",
            workspace_id: "ws_1",
            company_id: "co_1",
            event: "BankAccountEvents::CreatedEvent",
            resource_id: data.id,
            payload: JSON.stringify({ event: "BankAccountEvents::CreatedEvent", timestamp: payload.timestamp, data }),
            created_at: "2026-03-04T05:06:07.089Z",
          },
        ])
      }),
      { numRuns: 30 },
    )
  })

  it("names a payment event's row by its resource_id, with the payment instruction in its key order", () => {
    fc.assert(
      fc.property(now, fromSchema(PaymentInstruction), (at, data) => {
        const { rows, tx } = recordingTx()
        const payload = paymentEventPayload("PaymentEvents::FailedEvent", { now: at, companyId: "co_1", data })
        Effect.runSync(appendEvents(ports, tx, [{ workspaceId, companyId, payload }]))
        expect(rows[0]!.resource_id).toBe(data.id)
        expect(rows[0]!.payload).toBe(
          JSON.stringify({
            event: "PaymentEvents::FailedEvent",
            timestamp: at.toISOString(),
            company_id: "co_1",
            resource_id: data.id,
            data,
          }),
        )
      }),
      { numRuns: 30 },
    )
  })

  it("dies on a payload its schema refuses, writing nothing", () => {
    const { rows, tx } = recordingTx()
    const data = fc.sample(fromSchema(PaymentProfile), 1)[0]!
    const payload = { ...paymentProfileEventPayload("PaymentProfileEvents::CreatedEvent", { now: new Date(), data }) }
    const broken = { ...payload, timestamp: -5 }
    const exit = Effect.runSyncExit(appendEvents(ports, tx, [{ workspaceId, companyId, payload: broken }]))
    expect(exit._tag).toBe("Failure")
    expect(rows).toEqual([])
  })

  it("checks name and payload together at compile time", () => {
    const data = fc.sample(fromSchema(PaymentProfile), 1)[0]!
    const { tx } = recordingTx()
    const typeOnly = () =>
      appendEvents(ports, tx, [
        {
          workspaceId,
          companyId,
          // @ts-expect-error a bank-account event carries a Bank Account, not a Payment Profile
          payload: { event: "BankAccountEvents::CreatedEvent", timestamp: 1, data },
        },
      ])
    const payment = fc.sample(fromSchema(PaymentInstruction), 1)[0]!
    const wrongName = () =>
      // @ts-expect-error the payment builder takes only the names of payment events
      paymentEventPayload("BankAccountEvents::CreatedEvent", { now: new Date(), companyId: "c", data: payment })
    expect([typeOnly, wrongName]).toHaveLength(2)
  })
})
