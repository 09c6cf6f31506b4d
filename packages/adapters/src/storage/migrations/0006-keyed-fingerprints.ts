import { type Kysely, type Migration, sql } from "kysely"

/**
 * Idempotency fingerprints became keyed (`hmac-sha256:<key id>:<mac>`, HMAC-SHA-256 under a key
 * derived from the server secret). The ones stored before were the unkeyed SHA-256 of the request
 * body, from which a full account number could be guessed beside its stored mask: they are
 * erased, to core's `erasedFingerprint` as it was written then (a migration never changes with
 * the code). Their records stay, so a retry within their 24 hours replays instead of running
 * twice: the engine cannot compare an erased fingerprint, and replays for any request with the key.
 */
export const keyedFingerprintsSchema = (): Migration => ({
  up: async (db: Kysely<unknown>) => {
    await sql`update idempotency_records set fingerprint = 'erased:unkeyed-sha256'
      where fingerprint not like 'hmac-sha256:%'`.execute(db)
  },
})
