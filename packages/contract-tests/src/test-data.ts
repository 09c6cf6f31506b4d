import { CompanyCreate, CompanyUpdate, EntityCreate, EntityUpdate, RecipientCreate } from "@payments-engine/core/effect"
import { Arbitrary, Schema } from "effect"
import fc from "fast-check"

/**
 * `Arbitrary.make` for this package's fast-check: effect bundles its own fast-check (3.x), whose
 * arbitraries do not mix with fast-check 4's. `makeLazy` builds the arbitrary with the module it
 * is handed, and effect uses only functions that fast-check 4 still has.
 */
export const fromSchema = <A, I, R>(schema: Schema.Schema<A, I, R>): fc.Arbitrary<A> =>
  (Arbitrary.makeLazy(schema) as unknown as (module: typeof fc) => fc.Arbitrary<A>)(fc)

/**
 * Currencies for generated companies. Generating them from the schema would filter random
 * three-letter strings through ISO 4217 (slow); these few are checked against the schema below.
 */
const currencies = ["USD", "EUR", "GBP", "JPY", "CAD", "BHD"] as const
const currency = fc.constantFrom(...currencies)

/** A few names that collide once trimmed and lower-cased, so the same-name rule gets exercised. */
const collidingNames = fc.constantFrom("Acme", " acme ", "ACME", "Acme Inc")

/** Valid `POST /companies` bodies: name and country from the schema, a currency from the list. */
export const companyCreateBody = fc
  .tuple(fromSchema(CompanyCreate.pipe(Schema.omit("default_currency"))), currency)
  .map(([body, default_currency]) => ({ ...body, default_currency }))

/** Valid `PATCH /companies/{id}` bodies, every field optional. */
export const companyUpdateBody = fc
  .tuple(fromSchema(CompanyUpdate.pipe(Schema.omit("default_currency"))), fc.option(currency, { nil: undefined }))
  .map(([body, default_currency]) => (default_currency === undefined ? body : { ...body, default_currency }))

/** Valid `POST /entities` bodies, from the schema, sometimes with a colliding name. */
export const entityCreateBody = fc.oneof(
  fromSchema(EntityCreate),
  fc.tuple(fromSchema(EntityCreate), collidingNames).map(([body, name]) => ({ ...body, name })),
)

/** Valid `PATCH /entities/{id}` bodies, from the schema. */
export const entityUpdateBody = fromSchema(EntityUpdate)

/** Valid `POST /recipients` bodies, from the schema: email absent, null or an address. */
export const recipientCreateBody = fromSchema(RecipientCreate)

for (const code of currencies) {
  if (!Schema.is(CompanyCreate)({ name: "Check", country: "US", default_currency: code })) {
    throw new Error(`contract-tests: ${code} is not a currency the CompanyCreate schema accepts`)
  }
}
