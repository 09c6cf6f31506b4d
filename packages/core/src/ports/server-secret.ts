/**
 * The server's secret, from which the engine derives keys of its own, one per use, by HKDF with a
 * label (so far one: the key of idempotency fingerprints). The Koa service passes its JWT secret;
 * an embedding application passes a secret of its own, kept out of the database.
 *
 * The engine asks for it once, when it first needs it, so an application may resolve it after
 * building the engine. Keep it out of the database: whoever reads the database must not be able
 * to derive the keys (the Koa service keeps a generated one in a file, never in its storage).
 *
 * @example
 * const serverSecret: ServerSecret = { read: async () => process.env.MY_SERVER_SECRET! }
 */
export interface ServerSecret {
  /** The secret: at least 32 characters. */
  read(): Promise<string>
}
