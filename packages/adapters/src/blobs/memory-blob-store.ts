import { createHash } from "node:crypto"
import type { BlobStore } from "@payments-engine/core"
import { checkedBlobKey } from "./blob-keys.ts"

/** A blob store in memory; also counts what it holds (tests look). */
export interface MemoryBlobStore extends BlobStore {
  /** The keys held now, sorted. */
  keys(): ReadonlyArray<string>
}

/**
 * A {@link BlobStore} in this process's memory, for tests and embedders that keep nothing: each
 * key's bytes are copied in whole on `put` (an iterable is read to its end first, and nothing is
 * kept when its reading throws), so a reader never sees part of a write. Keys are checked as the filesystem store checks them.
 *
 * @example
 * declare const ports: EngineOptions
 * const engine = createEngine({ ...ports, blobStore: createMemoryBlobStore() })
 */
export const createMemoryBlobStore = (): MemoryBlobStore => {
  const blobs = new Map<string, Uint8Array>()
  return {
    keys: () => [...blobs.keys()].sort(),
    put: async (key, bytes) => {
      checkedBlobKey(key)
      const chunks: Array<Uint8Array> = []
      for await (const chunk of bytes instanceof Uint8Array ? [bytes] : bytes) chunks.push(chunk.slice())
      const whole = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0))
      let at = 0
      for (const chunk of chunks) {
        whole.set(chunk, at)
        at += chunk.length
      }
      blobs.set(key, whole)
      return { size: whole.length, sha256: createHash("sha256").update(whole).digest("hex") }
    },
    get: async (key) => {
      const bytes = blobs.get(checkedBlobKey(key))
      if (bytes === undefined) return undefined
      const copy = bytes.slice()
      return (async function* () {
        yield copy
      })()
    },
    delete: async (key) => blobs.delete(checkedBlobKey(key)),
  }
}
