import { expect } from "vitest"
import type { TestResponse } from "./test-service.ts"

/** An ISO 8601 timestamp in UTC with milliseconds. */
export const isoTimestamp = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)

/** Asserts an error answer with exactly one `{ field, message }`. */
export const expectError = (response: TestResponse, status: number, field: string, message: string): void => {
  expect({ status: response.status, body: response.body }).toEqual({ status, body: { errors: [{ field, message }] } })
}

/** The shape of a company in a response. */
export const companyShape = (fields: Partial<Record<string, unknown>> = {}) => ({
  id: expect.stringMatching(/^cmp_/),
  name: expect.any(String),
  country: expect.any(String),
  default_currency: expect.any(String),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  ...fields,
})

/** The shape of an entity in a response. */
export const entityShape = (fields: Partial<Record<string, unknown>> = {}) => ({
  id: expect.stringMatching(/^ent_/),
  name: expect.any(String),
  country_alpha2: expect.any(String),
  company_id: expect.stringMatching(/^cmp_/),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  ...fields,
})

/** The shape of a recipient in a response. */
export const recipientShape = (fields: Partial<Record<string, unknown>> = {}) => ({
  id: expect.stringMatching(/^rcp_/),
  name: expect.any(String),
  email: null,
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  bank_accounts: [],
  ...fields,
})
