/**
 * Hashes API key secrets with a slow salted hash and checks them in constant time. Lives behind a
 * port because the engine's core cannot reach Node's crypto.
 */
export interface SecretHasher {
  hash(secret: string): Promise<string>
  verify(secret: string, hash: string): Promise<boolean>
}
