import type { FileTypeDetector } from "@payments-engine/core"
import { fileTypeFromBuffer } from "file-type"

/**
 * A {@link FileTypeDetector} over `file-type` (sindresorhus): the media type read from the file's
 * magic numbers, or undefined when none matches (plain text, for one, has none). It looks only at
 * the bytes, never at a name or a declared type.
 *
 * @example
 * const detector = fileTypeDetector()
 * await detector.detect(new TextEncoder().encode("%PDF-1.4\n%%EOF\n")) // "application/pdf"
 */
export const fileTypeDetector = (): FileTypeDetector => ({
  detect: async (bytes) => (await fileTypeFromBuffer(bytes))?.mime,
})
