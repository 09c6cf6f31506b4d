/**
 * How many times an insert-or-read retries when the conflicting row vanished between the insert
 * and the read (another transaction deleted it). Twice is plenty; more means something is wrong.
 */
const conflictAttempts = 3

/**
 * Inserts a row unless a unique key is taken (`insert` resolves undefined then), and otherwise
 * reads the row that holds the key. On Postgres a racing insert of the same key waits for the
 * first transaction, then does nothing; the read that follows is a new statement and sees the
 * committed winner. Rejects with `failure` when neither happened.
 *
 * @example
 * declare const name: string, value: string
 * const row = await insertOrRead(
 *   () => db.insertInto("settings").values({ name, value }).onConflict((oc) => oc.column("name").doNothing()).returningAll().executeTakeFirst(),
 *   () => db.selectFrom("settings").selectAll().where("name", "=", name).executeTakeFirst(),
 *   `setting ${name} neither stored nor found`,
 * )
 */
export const insertOrRead = async <I, R>(
  insert: () => Promise<I | undefined>,
  read: () => Promise<R | undefined>,
  failure: string,
): Promise<{ readonly inserted: I } | { readonly existing: R }> => {
  for (let attempt = 0; attempt < conflictAttempts; attempt += 1) {
    const inserted = await insert()
    if (inserted !== undefined) return { inserted }
    const existing = await read()
    if (existing !== undefined) return { existing }
  }
  throw new Error(failure)
}
