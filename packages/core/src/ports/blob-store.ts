/**
 * Where the bytes of attachments live, by key. Keys are made by the engine (an attachment's id:
 * letters, digits, `_` and `-`); an adapter still refuses any other key, so no key can name a
 * place outside its store. Types are web-standard (`Uint8Array`, `AsyncIterable`), not Node's,
 * so an adapter may sit on a filesystem, an S3-compatible bucket or memory (see docs/adapters.md).
 *
 * @example
 * declare const blobs: BlobStore, response: import("node:http").ServerResponse
 * const { size, sha256 } = await blobs.put("att_01J...", bytes)
 * for await (const chunk of (await blobs.get("att_01J...")) ?? []) response.write(chunk)
 * await blobs.delete("att_01J...")
 */
export interface BlobStore {
  /**
   * Stores `bytes` under `key` as they are read, whole or not at all: a reader never sees part
   * of them (write elsewhere, then move into place), and when the iterable throws (the upload
   * was refused or cut short) nothing is left under the key or elsewhere. A key written again
   * is replaced. Answers the bytes' size and SHA-256, counted and hashed on the way through.
   */
  put(key: string, bytes: Uint8Array | AsyncIterable<Uint8Array>): Promise<StoredBlob>
  /** The bytes under `key`, read as they are consumed; undefined when there are none. */
  get(key: string): Promise<AsyncIterable<Uint8Array> | undefined>
  /** Removes the bytes under `key`: false when there were none. */
  delete(key: string): Promise<boolean>
}

/** What {@link BlobStore.put} wrote: its size in bytes and its SHA-256 in lower-case hex. */
export interface StoredBlob {
  readonly size: number
  readonly sha256: string
}

/**
 * Tells what a file is from its first bytes (its magic numbers), never from a name or a declared
 * type. Answers a media type (`application/pdf`, `image/png` ...) or undefined when it cannot tell.
 * Core cannot import the libraries that do this (they read Node streams), so the adapters give one.
 *
 * @example
 * declare const detector: FileTypeDetector
 * await detector.detect(new TextEncoder().encode("%PDF-1.4\n")) // "application/pdf"
 */
export interface FileTypeDetector {
  detect(bytes: Uint8Array): Promise<string | undefined>
}
