/**
 * The service could not start (database unreachable, port taken); the message says why, for the
 * operator.
 *
 * @example
 * startService(config).catch((error) => { if (error instanceof StartupError) console.error(error.message) })
 */
export class StartupError extends Error {
  override readonly name = "StartupError"
}
