/**
 * The keys a blob store adapter accepts: 1 to 128 letters, digits, `_` and `-`, starting with a
 * letter or digit (the engine's keys are attachment ids such as `att_01J...`). Nothing that can
 * name a directory (`/`, `\`, `..`) or a hidden file passes.
 */
export const blobKeyPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/

/**
 * `key` when {@link blobKeyPattern} accepts it; otherwise throws a `RangeError`.
 *
 * @example
 * checkedBlobKey("att_01JB8") // "att_01JB8"
 * checkedBlobKey("../etc/passwd") // throws
 */
export const checkedBlobKey = (key: string): string => {
  if (!blobKeyPattern.test(key))
    throw new RangeError(`blob key must match ${blobKeyPattern}, got ${JSON.stringify(key)}`)
  return key
}
