/**
 * Masks an account number for display and storage: four asterisks and at most the last four
 * characters, never more than half of the number, so a short number is not given away whole.
 * Spaces are ignored.
 *
 * @example
 * maskAccountNumber("GB82 WEST 1234 5698 7654 32") // "****5432"
 * maskAccountNumber("123456") // "****456"
 */
export const maskAccountNumber = (accountNumber: string): string => {
  const compact = accountNumber.replace(/\s+/g, "")
  const visible = Math.min(4, Math.floor(compact.length / 2))
  return `****${visible === 0 ? "" : compact.slice(-visible)}`
}
