/**
 * The server's secret, from which the engine derives keys of its own, one per use, by HKDF with a
 * label (so far one: the key of idempotency fingerprints). The Koa service passes its JWT secret;
 * an embedding application passes a secret of its own, kept out of the database.
 *
 * The engine asks for it once, when it first needs it, because a service may keep its secret in
 * its storage (the sandbox's generated JWT secret) and read it only after building the engine.
 *
 * @example
 * const serverSecret: ServerSecret = { read: async () => process.env.MY_SERVER_SECRET! }
 */
export interface ServerSecret {
  /** The secret: at least 32 characters. */
  read(): Promise<string>
}
