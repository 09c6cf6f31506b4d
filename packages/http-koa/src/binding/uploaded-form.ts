/*
 * What an upload route receives: the shape of a form once read, apart from the middleware that
 * reads it, so that the request state (`app-state.ts`) can name it without importing the reader.
 */

/** The file part of a form, received whole into a spool file that lives as long as its request. */
export interface UploadedFile {
  /** The part's field name. */
  readonly field: string
  /** The file name the client gave (`filename` of the part), as sent: the engine makes it safe. */
  readonly name: string
  /** Bytes received. */
  readonly size: number
  /** SHA-256 of the bytes, hex: what the idempotency fingerprint sees instead of the bytes. */
  readonly sha256: string
  /** The bytes, read from the spool file as they are consumed (a new read each call). */
  readonly bytes: () => AsyncIterable<Uint8Array>
}

/** A `multipart/form-data` body as read: its text fields (the first of each name) and its one file. */
export interface MultipartForm {
  readonly fields: Readonly<Record<string, string>>
  readonly file: UploadedFile | undefined
}
