import { createHash } from "node:crypto"
import { testServerSecret } from "@payments-engine/contract-tests"
import { type Actor, createEngine, type Engine, isDomainError } from "@payments-engine/core"
import { attachmentMaxBytes } from "@payments-engine/core/effect"
import { afterEach, describe, expect, it } from "vitest"
import {
  createMemoryBlobStore,
  createSandboxBankLinker,
  createSandboxPaymentProvider,
  fileTypeDetector,
  type MemoryBlobStore,
  openSqliteStorage,
  randomIds,
  scryptHasher,
  TestClock,
} from "../src/index.ts"

/**
 * The attachment use cases as an embedder calls them, without HTTP: what the engine itself refuses
 * (a file over 10 MB is 422 `file` here, where the HTTP binding never reads one), and an engine
 * built without a blob store.
 */
const refusal = async (call: Promise<unknown>) => {
  try {
    await call
  } catch (error) {
    if (isDomainError(error)) return { kind: error.kind, errors: error.errors }
    throw error
  }
  throw new Error("expected a refusal")
}

const pdf = new TextEncoder().encode("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n")

let storage: Awaited<ReturnType<typeof openSqliteStorage>> | undefined
afterEach(async () => {
  await storage?.close()
  storage = undefined
})

const engineWith = async (blobStore: MemoryBlobStore | undefined) => {
  storage = await openSqliteStorage({ filename: ":memory:" })
  const clock = new TestClock(new Date("2030-01-01T00:00:00.000Z"))
  const engine: Engine = createEngine({
    storage,
    clock,
    ids: randomIds({ clock }),
    hasher: scryptHasher({ cost: 2 ** 10 }),
    serverSecret: testServerSecret,
    paymentProvider: createSandboxPaymentProvider(),
    bankLinker: createSandboxBankLinker(),
    fileTypeDetector: fileTypeDetector(),
    ...(blobStore === undefined ? {} : { blobStore }),
  })
  const actor: Actor = {
    workspaceId: (await engine.access.createApiKey({ workspace: "docs", scope: "write" })).workspace_id,
    scope: "write",
  }
  const company = await engine.companies.create(actor, { name: "Docs", country: "US", default_currency: "USD" })
  const entity = await engine.entities.create(actor, company.id, { name: "Docs", country_alpha2: "US" })
  return { engine, actor, cid: company.id, eid: entity.id }
}

describe("onboarding attachments through the engine", () => {
  it("stores, reads back and deletes an upload in the blob store under the attachment's id", async () => {
    const blobs = createMemoryBlobStore()
    const { engine, actor, cid, eid } = await engineWith(blobs)
    const created = await engine.onboardingAttachments.create(actor, cid, eid, {
      document_type: "other",
      file: { name: "a.pdf", bytes: pdf },
    })
    expect(blobs.keys()).toEqual([created.id])
    const { attachment, bytes } = await engine.onboardingAttachments.content(actor, cid, eid, created.id)
    expect(attachment).toEqual(created)
    const chunks: Array<Uint8Array> = []
    for await (const chunk of bytes) chunks.push(chunk)
    expect(Buffer.concat(chunks).equals(Buffer.from(pdf))).toBe(true)
    await engine.onboardingAttachments.delete(actor, cid, eid, created.id)
    expect(blobs.keys()).toEqual([])
  })

  it("refuses a file over 10 MB with 422 file, and writes nothing", async () => {
    const blobs = createMemoryBlobStore()
    const { engine, actor, cid, eid } = await engineWith(blobs)
    const big = new Uint8Array(attachmentMaxBytes + 1)
    big.set(pdf)
    expect(
      await refusal(
        engine.onboardingAttachments.create(actor, cid, eid, {
          document_type: "other",
          file: { name: "big.pdf", bytes: big },
        }),
      ),
    ).toEqual({ kind: "invalid", errors: [{ field: "file", message: "File is too large (maximum is 10 MiB)" }] })
    expect(blobs.keys()).toEqual([])
    const exact = await engine.onboardingAttachments.create(actor, cid, eid, {
      document_type: "other",
      file: { name: "exact.pdf", bytes: big.subarray(0, attachmentMaxBytes) },
    })
    expect(exact.size_bytes).toBe(attachmentMaxBytes)
  })

  it("stores a streamed file as it is read, with its size and SHA-256; a stream past 10 MiB is 422 file, and it or a failing one leaves nothing stored", async () => {
    const blobs = createMemoryBlobStore()
    const { engine, actor, cid, eid } = await engineWith(blobs)
    const mebibyte = 1024 * 1024
    let pulled = 0
    let closed = 0
    /** `count` chunks of 1 MiB, a PDF by its first bytes (else text); throws after `failAfter` chunks when given. */
    async function* chunks(count: number, failAfter?: number, first = pdf): AsyncIterable<Uint8Array> {
      try {
        for (let i = 0; i < count; i += 1) {
          if (i === failAfter) throw new Error("the client went away")
          pulled += 1
          const chunk = new Uint8Array(mebibyte).fill(0x20)
          if (i === 0) chunk.set(first)
          yield chunk
        }
      } finally {
        // The source is closed however its reading ends: a spool file's descriptor, for one.
        closed += 1
      }
    }
    const streamed = await engine.onboardingAttachments.create(actor, cid, eid, {
      document_type: "other",
      file: { name: "streamed.pdf", bytes: chunks(3) },
    })
    const whole = Buffer.alloc(3 * mebibyte, 0x20)
    whole.set(pdf)
    expect(streamed).toMatchObject({
      size_bytes: 3 * mebibyte,
      sha256: createHash("sha256").update(whole).digest("hex"),
      content_type: "application/pdf",
    })
    expect(blobs.keys()).toEqual([streamed.id])

    pulled = 0
    expect(
      await refusal(
        engine.onboardingAttachments.create(actor, cid, eid, {
          document_type: "other",
          file: { name: "endless.pdf", bytes: chunks(20) },
        }),
      ),
    ).toEqual({ kind: "invalid", errors: [{ field: "file", message: "File is too large (maximum is 10 MiB)" }] })
    // Read only until it passed the limit, not to its end, and closed.
    expect(pulled).toBe(11)
    expect(closed).toBe(2)
    pulled = 0
    expect(
      await refusal(
        engine.onboardingAttachments.create(actor, cid, eid, {
          document_type: "other",
          file: { name: "notes.pdf", bytes: chunks(20, undefined, new TextEncoder().encode("plain text")) },
        }),
      ),
    ).toMatchObject({ kind: "invalid", errors: [{ field: "file" }] })
    // Its type told from the first chunk, nothing more read, and closed.
    expect([pulled, closed]).toEqual([1, 3])
    await expect(
      engine.onboardingAttachments.create(actor, cid, eid, {
        document_type: "other",
        file: { name: "cut.pdf", bytes: chunks(5, 2) },
      }),
    ).rejects.toThrow("the client went away")
    expect(blobs.keys()).toEqual([streamed.id])
    expect((await engine.onboardingAttachments.list(actor, cid, eid)).data.map((a) => a.id)).toEqual([streamed.id])
  })

  it("works without a blob store until an attachment is uploaded, which then fails naming the missing option", async () => {
    const { engine, actor, cid, eid } = await engineWith(undefined)
    expect((await engine.onboardingAttachments.list(actor, cid, eid)).data).toEqual([])
    await expect(
      engine.onboardingAttachments.create(actor, cid, eid, {
        document_type: "other",
        file: { name: "a.pdf", bytes: pdf },
      }),
    ).rejects.toThrow("the engine was built without a blobStore")
  })
})
