import { createHash, randomBytes } from "node:crypto"
import { mkdir, open, rename, rm, unlink } from "node:fs/promises"
import { join, resolve, sep } from "node:path"
import type { BlobStore, StoredBlob } from "@payments-engine/core"
import { checkedBlobKey } from "./blob-keys.ts"

/** Options of {@link createFileBlobStore}. */
export interface FileBlobStoreOptions {
  /** The directory that holds the blobs, made (with its parents) on first write. */
  readonly directory: string
}

/** A blob store on a directory; also says where a key's file is (tests and operators look). */
export interface FileBlobStore extends BlobStore {
  /** The absolute directory of the store. */
  readonly directory: string
  /** The file that holds `key`'s bytes (whether or not it exists). */
  pathOf(key: string): string
}

const isMissing = (error: unknown) => (error as { readonly code?: unknown } | null)?.code === "ENOENT"

/**
 * A {@link BlobStore} on the filesystem: one file per key, `<directory>/<key>`. A write goes to
 * `<directory>/.incoming/<key>.<random>` chunk by chunk as the bytes are read (hashed and counted
 * on the way), is flushed to disk, then renamed into place (atomic on one filesystem), so a
 * reader sees the old bytes or the new ones, never part; a failed write, or bytes whose reading
 * throws (an upload refused or cut short), leaves no file behind. Keys are checked against `blobKeyPattern` and the resolved path must stay
 * inside the directory, so no key reaches outside it.
 *
 * @example
 * const blobs = createFileBlobStore({ directory: "./data/attachments" })
 * await blobs.put("att_01J...", bytes)
 */
export const createFileBlobStore = (options: FileBlobStoreOptions): FileBlobStore => {
  const directory = resolve(options.directory)
  const incoming = join(directory, ".incoming")
  const pathOf = (key: string) => {
    const path = resolve(directory, checkedBlobKey(key))
    if (!path.startsWith(directory + sep)) throw new RangeError(`blob key ${JSON.stringify(key)} leaves the store`)
    return path
  }
  return {
    directory,
    pathOf,
    put: async (key, bytes) => {
      const target = pathOf(key)
      await mkdir(incoming, { recursive: true })
      const temporary = join(incoming, `${key}.${randomBytes(8).toString("hex")}`)
      let stored: StoredBlob
      try {
        const handle = await open(temporary, "wx", 0o600)
        try {
          const hash = createHash("sha256")
          let size = 0
          for await (const chunk of bytes instanceof Uint8Array ? [bytes] : bytes) {
            size += chunk.length
            hash.update(chunk)
            await handle.write(chunk)
          }
          await handle.sync()
          stored = { size, sha256: hash.digest("hex") }
        } finally {
          await handle.close()
        }
        await rename(temporary, target)
        return stored
      } catch (error) {
        await rm(temporary, { force: true })
        throw error
      }
    },
    get: async (key) => {
      try {
        const handle = await open(pathOf(key), "r")
        return handle.createReadStream()
      } catch (error) {
        if (isMissing(error)) return undefined
        throw error
      }
    },
    delete: async (key) => {
      try {
        await unlink(pathOf(key))
        return true
      } catch (error) {
        if (isMissing(error)) return false
        throw error
      }
    },
  }
}
