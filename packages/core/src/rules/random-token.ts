const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"

/**
 * A random token of `length` characters from [0-9a-z], from the platform's CSPRNG
 * (`crypto.getRandomValues`), without modulo bias.
 */
export const randomToken = (length: number): string => {
  let out = ""
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2))
    for (const byte of bytes) {
      if (byte < 252 && out.length < length) out += alphabet[byte % 36]
    }
  }
  return out
}
