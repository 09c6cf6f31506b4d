import { createHash } from "node:crypto"
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { BlobStore } from "@payments-engine/core"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { createFileBlobStore, type FileBlobStore } from "./file-blob-store.ts"
import { fileTypeDetector } from "./file-type-detector.ts"
import { createMemoryBlobStore } from "./memory-blob-store.ts"

const bytesOf = (text: string) => new TextEncoder().encode(text)
const sha256Of = (text: string) => createHash("sha256").update(text).digest("hex")

const readAll = async (blobs: BlobStore, key: string): Promise<string | undefined> => {
  const stream = await blobs.get(key)
  if (stream === undefined) return undefined
  const chunks: Array<Uint8Array> = []
  for await (const chunk of stream) chunks.push(chunk)
  return Buffer.concat(chunks).toString("utf8")
}

async function* chunksOf(...parts: ReadonlyArray<string>): AsyncIterable<Uint8Array> {
  for (const part of parts) yield bytesOf(part)
}

let directory: string
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "blobs-"))
})
afterEach(async () => {
  await rm(directory, { recursive: true, force: true })
})

describe.each([
  ["the filesystem store", () => createFileBlobStore({ directory: join(directory, "store") }) as BlobStore],
  ["the memory store", () => createMemoryBlobStore() as BlobStore],
])("%s", (_name, make) => {
  it("puts bytes or chunks, answering their size and SHA-256, reads them back, replaces them, and deletes them once", async () => {
    const blobs = make()
    expect(await blobs.get("att_1")).toBeUndefined()
    expect(await blobs.put("att_1", bytesOf("first"))).toEqual({ size: 5, sha256: sha256Of("first") })
    expect(await blobs.put("att_2", chunksOf("sec", "ond"))).toEqual({ size: 6, sha256: sha256Of("second") })
    expect(await readAll(blobs, "att_1")).toBe("first")
    expect(await readAll(blobs, "att_2")).toBe("second")
    await blobs.put("att_1", bytesOf("again"))
    expect(await readAll(blobs, "att_1")).toBe("again")
    expect(await blobs.delete("att_1")).toBe(true)
    expect(await blobs.delete("att_1")).toBe(false)
    expect(await blobs.get("att_1")).toBeUndefined()
  })

  it("keeps nothing of chunks whose reading throws (an upload refused or cut short)", async () => {
    const blobs = make()
    async function* failing(): AsyncIterable<Uint8Array> {
      yield bytesOf("part")
      throw new Error("the client went away")
    }
    await expect(blobs.put("att_3", failing())).rejects.toThrow("the client went away")
    expect(await blobs.get("att_3")).toBeUndefined()
  })

  it.each([
    "../escape",
    "a/b",
    "..",
    ".hidden",
    "",
    "a\\b",
    "x".repeat(129),
    "att_1\u0000",
  ])("refuses the key %j", async (key) => {
    const blobs = make()
    await expect(blobs.put(key, bytesOf("x"))).rejects.toThrow(RangeError)
    await expect(blobs.get(key)).rejects.toThrow(RangeError)
    await expect(blobs.delete(key)).rejects.toThrow(RangeError)
  })
})

describe("the filesystem store", () => {
  it("keeps one file per key under its directory, and leaves no temporary file after a write, even a failed one", async () => {
    const blobs: FileBlobStore = createFileBlobStore({ directory: join(directory, "store") })
    await blobs.put("att_1", bytesOf("kept"))
    expect(blobs.pathOf("att_1")).toBe(join(directory, "store", "att_1"))
    expect(await readFile(join(directory, "store", "att_1"), "utf8")).toBe("kept")
    async function* failing(): AsyncIterable<Uint8Array> {
      yield bytesOf("part")
      throw new Error("the client went away")
    }
    await expect(blobs.put("att_2", failing())).rejects.toThrow("the client went away")
    expect(await blobs.get("att_2")).toBeUndefined()
    expect(await readdir(join(directory, "store", ".incoming"))).toEqual([])
    expect((await readdir(join(directory, "store"))).sort()).toEqual([".incoming", "att_1"])
  })
})

describe("fileTypeDetector", () => {
  const detector = fileTypeDetector()
  it("tells PDF, PNG and JPEG by their first bytes, and nothing for text", async () => {
    expect(await detector.detect(bytesOf("%PDF-1.4\n%%EOF\n"))).toBe("application/pdf")
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
    expect(await detector.detect(png)).toBe("image/png")
    expect(await detector.detect(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]))).toBe(
      "image/jpeg",
    )
    expect(await detector.detect(bytesOf("just some text, named statement.pdf"))).toBeUndefined()
  })
})
