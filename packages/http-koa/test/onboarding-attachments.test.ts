import { createHash } from "node:crypto"
import { mkdtemp, readdir, readFile, readlink, rm } from "node:fs/promises"
import { Agent, type ClientRequest, request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { KyselyStorage } from "@payments-engine/adapters/kysely"
import { openTestPostgres, openTestSqlite } from "@payments-engine/adapters/testing"
import type { Storage } from "@payments-engine/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signedInEntity } from "./support/entity-client.ts"
import { expectError, isoTimestamp } from "./support/expectations.ts"
import { expectDocumentedShape } from "./support/payment-fixtures.ts"
import { activateIntegration, readResponse, startTestService, type TestService } from "./support/test-service.ts"

/**
 * An onboarding's attachments over HTTP on a real socket, on SQLite and Postgres: uploads as
 * `multipart/form-data` of real (tiny) PDF, PNG and JPEG files, their type told by their bytes
 * and never by the name or declared type, downloads byte for byte, deletes that remove the file
 * from the data directory, a file of exactly 10 MiB accepted and one byte more refused (413 before
 * an oversized body is sent), spool files removed whatever the end of their request, uploads in
 * progress capped per key (429) and per process (503), tenancy and the 403 of an active integration.
 */
const sqlite = openTestSqlite()
const postgres = openTestPostgres()
afterAll(async () => {
  await sqlite.close()
  await postgres.close()
})

/** A minimal PDF, written by hand: header, catalogue, one empty page, trailer. */
const pdf = new TextEncoder().encode(
  [
    "%PDF-1.4",
    "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj",
    "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj",
    "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj",
    "trailer << /Root 1 0 R >>",
    "%%EOF",
    "",
  ].join("\n"),
)
/** A 1x1 PNG. */
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
)
/** A 1x1 JPEG (JFIF). */
const jpeg = Buffer.from(
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  "base64",
)
const text = new TextEncoder().encode("Not a PDF at all, whatever its name says.\n")

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

/** A PDF (by its first bytes) of exactly `size` bytes: the minimal one, padded with spaces. */
const pdfOfSize = (size: number) => {
  const bytes = Buffer.alloc(size, 0x20)
  bytes.set(pdf.subarray(0, Math.min(pdf.length, size)))
  return bytes
}

const modifyIntegration = "Cannot modify onboarding for entity with active payment integration"

/** The files in an attachments directory, the temporary ones' folder aside. */
const storedFiles = async (directory: string) =>
  (await readdir(directory).catch(() => [] as Array<string>)).filter((name) => name !== ".incoming").sort()

/** A form with `file` (when given) and `document_type` (when given). */
const formOf = (parts: {
  readonly file?: { readonly bytes: Uint8Array; readonly name: string; readonly type?: string }
  readonly document_type?: string
}) => {
  const form = new FormData()
  if (parts.file !== undefined) {
    const { bytes, name, type } = parts.file
    form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], type === undefined ? {} : { type }), name)
  }
  if (parts.document_type !== undefined) form.append("document_type", parts.document_type)
  return form
}

/** What {@link oversizedUpload} saw. */
interface OversizedAnswer {
  readonly status: number
  readonly body: string
  /** The answer's `Connection` header. */
  readonly connection: string | undefined
  /** Body bytes written when the answer arrived. */
  readonly sentWhenAnswered: number
  /** True when the whole body could be written: the server went on reading it after answering. */
  readonly wroteAll: boolean
}

/**
 * Sends a multipart body by `node:http` and tells what the server answered, how much of the body
 * was written when the answer arrived, and whether the rest could still be written after it.
 * `chunked` sends it with `Transfer-Encoding: chunked`, 64 KiB at a time (each written once the
 * socket takes the last), going on after the answer until the server closes the connection or
 * all is sent; otherwise `Content-Length` declares `totalBytes` and no byte of the body is written.
 */
const oversizedUpload = (
  url: string,
  path: string,
  token: string,
  options: { readonly chunked: boolean; readonly totalBytes: number },
): Promise<OversizedAnswer> =>
  new Promise((resolve, reject) => {
    const boundary = "----oversized"
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="document_type"\r\n\r\nbank_statement\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    )
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
    }
    if (!options.chunked) headers["Content-Length"] = String(options.totalBytes)
    // A fresh connection that asks to be kept alive: only the server's choice closes it.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const req = httpRequest(new URL(path, url), { method: "POST", headers, agent })
    let sent = 0
    let wroteAll = false
    let answer: Omit<OversizedAnswer, "wroteAll"> | undefined
    let responded = false
    let stopped = false
    const settle = () => {
      if (stopped || answer === undefined) return
      stopped = true
      agent.destroy()
      resolve({ ...answer, wroteAll })
    }
    req.on("error", (error: NodeJS.ErrnoException) => {
      // Writing into a connection the server closed after answering: expected once answered.
      if (!responded) reject(error)
    })
    req.on("finish", () => {
      wroteAll = true
    })
    req.on("close", settle)
    req.on("response", (response) => {
      responded = true
      const chunks: Array<Buffer> = []
      const sentWhenAnswered = sent
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => {
        answer = {
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8"),
          connection: response.headers.connection,
          sentWhenAnswered,
        }
        if (wroteAll || req.socket?.destroyed) settle()
        else req.socket?.once("close", settle)
        if (!options.chunked) req.destroy()
      })
    })
    if (!options.chunked) {
      // Headers only: the body is never written, yet the answer must come.
      req.flushHeaders()
      return
    }
    const piece = Buffer.alloc(64 * 1024, 0x20)
    const writeMore = () => {
      while (!req.destroyed && sent < options.totalBytes) {
        const chunk = sent === 0 ? head : piece
        sent += chunk.length
        if (!req.write(chunk)) {
          // Between pieces the client reads what came back, as curl does while it sends.
          req.once("drain", () => setImmediate(writeMore))
          return
        }
      }
      if (!req.destroyed) {
        req.end()
        // All written: the server answered without closing, so nothing else ends this exchange.
        req.once("finish", settle)
      }
    }
    writeMore()
  })

describe.each([
  ["SQLite", () => sqlite.factory()],
  ["Postgres", () => postgres.factory()],
])("onboarding attachments on %s", (_name, factory) => {
  let service: TestService
  let storage: Storage
  let spool: string
  beforeAll(async () => {
    storage = (await factory()) as KyselyStorage
    spool = await mkdtemp(join(tmpdir(), "upload-spool-"))
    service = await startTestService({ storage, sandbox: true, uploadSpoolDirectory: spool })
  })
  afterAll(async () => {
    await service.close()
    await rm(spool, { recursive: true, force: true })
  })

  /** A workspace with one company and its US entity, signed in. */
  const client = async (workspace: string) => {
    const { token, cid, eid } = await signedInEntity(service, workspace)
    const base = `/api/v1/companies/${cid}/entities/${eid}/onboarding/attachments`
    const call = (method: string, path: string, headers: Record<string, string> = {}) =>
      service.request(method, path, { token, headers })
    const upload = async (form: FormData, headers: Record<string, string> = {}, path = base) =>
      readResponse(
        await fetch(`${service.url}${path}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, ...headers },
          body: form,
        }),
      )
    return { token, cid, eid, base, call, upload }
  }

  it("stores a PDF, a PNG and a JPEG with the type their bytes tell, lists them in order, and gives each back byte for byte", async () => {
    const c = await client("attachments-round-trip")
    const files = [
      { bytes: pdf, name: "../../private/Relevé «mars».pdf", type: "application/pdf", kind: "bank_statement" },
      // Declared types are ignored both ways: the PNG is sent as a PDF, the JPEG as text.
      { bytes: png, name: "C:\\scans\\passport.png", type: "application/pdf", kind: "identity_document" },
      { bytes: jpeg, name: "proof.jpg", type: "text/plain", kind: "proof_of_address" },
    ]
    const detected = ["application/pdf", "image/png", "image/jpeg"]
    const kept = ["Relevé «mars».pdf", "passport.png", "proof.jpg"]
    const created = []
    for (const [i, file] of files.entries()) {
      const answer = await c.upload(formOf({ file, document_type: file.kind }))
      expectDocumentedShape(service.routes, "createOnboardingAttachment", answer)
      expect(answer.body.data).toEqual({
        id: expect.stringMatching(/^att_/),
        document_type: file.kind,
        file_name: kept[i],
        content_type: detected[i],
        size_bytes: file.bytes.length,
        sha256: sha256(file.bytes),
        created_at: isoTimestamp,
      })
      created.push(answer.body.data)
    }
    expect(await storedFiles(service.attachmentsDirectory)).toEqual(expect.arrayContaining(created.map((a) => a.id)))

    const list = await c.call("GET", `${c.base}?per_page=2`)
    expectDocumentedShape(service.routes, "listOnboardingAttachments", list)
    expect(list.body.data).toEqual(created.slice(0, 2))
    expect(list.body.meta).toEqual({ total_records: 3, total_pages: 2, current_page: 1, per_page: 2 })
    expect(list.body.links.next).toContain("page=2")
    expect((await c.call("GET", `${c.base}?page=2&per_page=2`)).body.data).toEqual(created.slice(2))

    for (const [i, attachment] of created.entries()) {
      const one = await c.call("GET", `${c.base}/${attachment.id}`)
      expectDocumentedShape(service.routes, "getOnboardingAttachment", one)
      expect(one.body.data).toEqual(attachment)
      const download = await fetch(`${service.url}${c.base}/${attachment.id}/content`, {
        headers: { Authorization: `Bearer ${c.token}` },
      })
      expect(download.status).toBe(200)
      const bytes = new Uint8Array(await download.arrayBuffer())
      expect(Buffer.from(bytes).equals(Buffer.from(files[i]!.bytes))).toBe(true)
      expect(sha256(bytes)).toBe(attachment.sha256)
      expect(download.headers.get("content-type")).toBe(detected[i])
      expect(download.headers.get("content-length")).toBe(String(files[i]!.bytes.length))
      expect(download.headers.get("x-content-type-options")).toBe("nosniff")
      expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="/)
    }
    const disposition = (
      await fetch(`${service.url}${c.base}/${created[0].id}/content`, {
        headers: { Authorization: `Bearer ${c.token}` },
      })
    ).headers.get("content-disposition")
    // ASCII only: a fallback name, and the full name in UTF-8 in filename*.
    expect(disposition).toBe(
      `attachment; filename="Relev_ _mars_.pdf"; filename*=UTF-8''Relev%C3%A9%20%C2%ABmars%C2%BB.pdf`,
    )
  })

  it("refuses a text file named .pdf and sent as application/pdf, and writes nothing for it", async () => {
    const c = await client("attachments-disguised")
    const before = await storedFiles(service.attachmentsDirectory)
    const answer = await c.upload(
      formOf({
        file: { bytes: text, name: "statement.pdf", type: "application/pdf" },
        document_type: "bank_statement",
      }),
    )
    expectError(
      answer,
      422,
      "file",
      "File must be a PDF, PNG or JPEG document (judged by its content, not its name or declared type)",
    )
    expect(await storedFiles(service.attachmentsDirectory)).toEqual(before)
    expect((await c.call("GET", c.base)).body.data).toEqual([])
  })

  it("answers 422 on document_type when it is missing or unknown, on file when it is missing or empty, all at once", async () => {
    const c = await client("attachments-fields")
    const file = { bytes: pdf, name: "statement.pdf" }
    expectError(await c.upload(formOf({ file })), 422, "document_type", "Document type is required")
    expectError(
      await c.upload(formOf({ file, document_type: "selfie" })),
      422,
      "document_type",
      "must be one of: certificate_of_incorporation, proof_of_address, bank_statement, identity_document, other",
    )
    expectError(await c.upload(formOf({ document_type: "other" })), 422, "file", "File is required")
    expectError(
      await c.upload(formOf({ file: { bytes: new Uint8Array(), name: "empty.pdf" }, document_type: "other" })),
      422,
      "file",
      "File is empty",
    )
    const both = await c.upload(formOf({}))
    expect(both.status).toBe(422)
    expect(both.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["document_type", "file"])
    const twoFiles = formOf({ file, document_type: "other" })
    twoFiles.append("file", new Blob([png]), "second.png")
    expectError(await c.upload(twoFiles), 422, "file", "Only one file may be sent")
    const json = await service.request("POST", c.base, { token: c.token, body: { document_type: "other" } })
    expectError(json, 415, "body", "Content-Type must be multipart/form-data")
    const form = '--x\r\nContent-Disposition: form-data; name="document_type"\r\n\r\nother\r\n--x--\r\n'
    const gzipped = await service.request("POST", c.base, {
      token: c.token,
      raw: form,
      headers: { "Content-Type": "multipart/form-data; boundary=x", "Content-Encoding": "gzip" },
    })
    expectError(gzipped, 415, "body", "Content-Encoding must be identity")
    const noBoundary = await service.request("POST", c.base, {
      token: c.token,
      raw: form,
      headers: { "Content-Type": "multipart/form-data" },
    })
    expectError(noBoundary, 400, "body", "Malformed multipart/form-data body")
    expectError(
      await c.upload(formOf({ file, document_type: "x".repeat(2000) })),
      422,
      "document_type",
      "is too long (maximum is 1024 bytes)",
    )
    const crowded = formOf({ file, document_type: "other" })
    for (let i = 0; i < 12; i += 1) crowded.append(`note_${i}`, "x")
    expect((await c.upload(crowded)).status).toBe(400)
    expect((await c.call("GET", c.base)).body.meta.total_records).toBe(0)
  })

  it("deletes an attachment with its file on disk, then answers 404 for it", async () => {
    const c = await client("attachments-delete")
    const created = (await c.upload(formOf({ file: { bytes: png, name: "a.png" }, document_type: "other" }))).body.data
    const path = join(service.attachmentsDirectory, created.id)
    expect(Buffer.from(await readFile(path)).equals(png)).toBe(true)
    const deleted = await c.call("DELETE", `${c.base}/${created.id}`)
    expect(deleted.status).toBe(204)
    await expect(readFile(path)).rejects.toMatchObject({ code: "ENOENT" })
    const notFound = "Attachment not found or not accessible in this entity"
    expectError(await c.call("GET", `${c.base}/${created.id}`), 404, "id", notFound)
    expectError(await c.call("GET", `${c.base}/${created.id}/content`), 404, "id", notFound)
    expectError(await c.call("DELETE", `${c.base}/${created.id}`), 404, "id", notFound)
  })

  it("answers 404 for another company's or workspace's entity on every route, as for a missing one", async () => {
    const owner = await client("attachments-owner")
    const created = (await owner.upload(formOf({ file: { bytes: pdf, name: "x.pdf" }, document_type: "other" }))).body
      .data
    const neighbour = await client("attachments-neighbour")
    const sameWorkspaceCompany = await service.request("POST", "/api/v1/companies", {
      token: owner.token,
      body: { name: "Sibling", country: "US", default_currency: "USD" },
    })
    const siblingBase = `/api/v1/companies/${sameWorkspaceCompany.body.data.id}/entities/${owner.eid}/onboarding/attachments`
    for (const [who, base] of [
      [neighbour, owner.base],
      [owner, siblingBase],
    ] as const) {
      const answers = [
        await who.call("GET", base),
        await who.call("GET", `${base}/${created.id}`),
        await who.call("GET", `${base}/${created.id}/content`),
        await who.call("DELETE", `${base}/${created.id}`),
        await who.upload(formOf({ file: { bytes: pdf, name: "x.pdf" }, document_type: "other" }), {}, base),
      ]
      expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404, 404])
    }
    // The neighbour's own entity has no such attachment either.
    expect((await neighbour.call("GET", `${neighbour.base}/${created.id}`)).status).toBe(404)
    expect((await owner.call("GET", `${owner.base}/${created.id}`)).status).toBe(200)
  })

  it("refuses uploads and deletes with 403 once the payment integration is active; reads still answer", async () => {
    const c = await client("attachments-active")
    const created = (await c.upload(formOf({ file: { bytes: jpeg, name: "id.jpg" }, document_type: "other" }))).body
      .data
    await activateIntegration(storage, c.cid, c.eid)
    const before = await storedFiles(service.attachmentsDirectory)
    expectError(
      await c.upload(formOf({ file: { bytes: pdf, name: "late.pdf" }, document_type: "other" })),
      403,
      "base",
      modifyIntegration,
    )
    expectError(await c.call("DELETE", `${c.base}/${created.id}`), 403, "base", modifyIntegration)
    expect(await storedFiles(service.attachmentsDirectory)).toEqual(before)
    expect((await c.call("GET", `${c.base}/${created.id}`)).status).toBe(200)
    expect((await c.call("GET", c.base)).body.data).toEqual([created])
  })

  it("replays an upload retried with its Idempotency-Key, and refuses the key for another file or document type", async () => {
    const c = await client("attachments-idempotent")
    const form = () => formOf({ file: { bytes: pdf, name: "statement.pdf" }, document_type: "bank_statement" })
    const first = await c.upload(form(), { "Idempotency-Key": "upload-1" })
    expect(first.status).toBe(201)
    const again = await c.upload(form(), { "Idempotency-Key": "upload-1" })
    expect(again.status).toBe(201)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body).toEqual(first.body)
    expect((await c.call("GET", c.base)).body.meta.total_records).toBe(1)
    const otherType = formOf({ file: { bytes: pdf, name: "statement.pdf" }, document_type: "other" })
    expect((await c.upload(otherType, { "Idempotency-Key": "upload-1" })).status).toBe(422)
    const otherFile = formOf({ file: { bytes: png, name: "statement.pdf" }, document_type: "bank_statement" })
    expect((await c.upload(otherFile, { "Idempotency-Key": "upload-1" })).status).toBe(422)
    expect((await c.call("GET", c.base)).body.meta.total_records).toBe(1)
  })

  it("accepts a file of exactly 10 MiB (10,485,760 bytes) byte for byte, answers 413 to one byte more, and leaves no spool file", async () => {
    const c = await client("attachments-exact-limit")
    const largest = pdfOfSize(10 * 1024 * 1024)
    const accepted = await c.upload(formOf({ file: { bytes: largest, name: "largest.pdf" }, document_type: "other" }))
    expect(accepted.status).toBe(201)
    expect(accepted.body.data).toMatchObject({ size_bytes: 10_485_760, sha256: sha256(largest) })
    const stored = await readFile(join(service.attachmentsDirectory, accepted.body.data.id))
    expect(stored.equals(largest)).toBe(true)
    const over = await c.upload(
      formOf({ file: { bytes: pdfOfSize(10 * 1024 * 1024 + 1), name: "over.pdf" }, document_type: "other" }),
    )
    expectError(over, 413, "body", "Payload too large")
    expect((await c.call("GET", c.base)).body.data.map((a: { id: string }) => a.id)).toEqual([accepted.body.data.id])
    expect(await readdir(spool)).toEqual([])
  })

  it("keeps no spool file open once an upload is refused before its bytes are read (404, 403) or for its type (422)", async () => {
    const owner = await client("attachments-spool-refused")
    const other = await client("attachments-spool-other")
    await activateIntegration(storage, owner.cid, owner.eid)
    const file = { bytes: pdf, name: "x.pdf" }
    expect((await other.upload(formOf({ file, document_type: "other" }), {}, owner.base)).status).toBe(404)
    expect((await owner.upload(formOf({ file, document_type: "other" }))).status).toBe(403)
    const typed = formOf({ file: { bytes: text, name: "t.pdf" }, document_type: "other" })
    expect((await other.upload(typed)).status).toBe(422)
    /** Files this process holds open under the spool directory, removed ones included. */
    const openSpoolFiles = async () => {
      const links = await Promise.all(
        (await readdir("/proc/self/fd")).map((fd) => readlink(join("/proc/self/fd", fd)).catch(() => "")),
      )
      return links.filter((target) => target.startsWith(spool))
    }
    // A stream destroyed closes its descriptor on a later turn of the event loop.
    for (let i = 0; i < 50 && (await openSpoolFiles()).length > 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(await openSpoolFiles()).toEqual([])
    expect(await readdir(spool)).toEqual([])
  })

  it("answers 413 to a body declared over 10 MB before any of it is sent, and closes the connection", async () => {
    const c = await client("attachments-declared")
    const answer = await oversizedUpload(service.url, c.base, c.token, {
      chunked: false,
      totalBytes: 10 * 1024 * 1024 + 64 * 1024 + 1,
    })
    expect(answer).toEqual({
      status: 413,
      body: JSON.stringify({ errors: [{ field: "body", message: "Payload too large" }] }),
      connection: "close",
      sentWhenAnswered: 0,
      wroteAll: false,
    })
  })

  it("answers 413 to a chunked body once its file crosses 10 MB, while most of it is unsent, and closes the connection", async () => {
    const c = await client("attachments-chunked")
    const before = await storedFiles(service.attachmentsDirectory)
    const totalBytes = 40 * 1024 * 1024
    const answer = await oversizedUpload(service.url, c.base, c.token, { chunked: true, totalBytes })
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body)).toEqual({ errors: [{ field: "body", message: "Payload too large" }] })
    expect(answer.connection).toBe("close")
    // The answer came once the file passed its limit (plus what the sockets buffer), not at the end...
    expect(answer.sentWhenAnswered).toBeGreaterThan(10 * 1024 * 1024)
    expect(answer.sentWhenAnswered).toBeLessThan(totalBytes / 2)
    // ...and the server read no more: the rest could not be written.
    expect(answer.wroteAll).toBe(false)
    expect(await storedFiles(service.attachmentsDirectory)).toEqual(before)
    expect((await c.call("GET", c.base)).body.data).toEqual([])
  })
})

describe("an attachment whose row cannot be written", () => {
  it("leaves no file behind: the bytes written first are removed again", async () => {
    const real = await sqlite.factory()
    const failing: Storage = {
      ...real,
      capabilities: real.capabilities,
      transaction: (work) =>
        real.transaction((tx) =>
          work(
            new Proxy(tx, {
              get: (target, name) =>
                name === "onboardingAttachments"
                  ? {
                      ...target.onboardingAttachments,
                      insert: async () => {
                        throw new Error("planted: the row is not written")
                      },
                    }
                  : Reflect.get(target, name),
            }),
          ),
        ),
      createJobRunner: (handlers, options) => real.createJobRunner(handlers, options),
      close: () => real.close(),
    }
    const service = await startTestService({ storage: failing, sandbox: true })
    try {
      const token = await service.signIn("attachments-failing")
      const cid = (
        await service.request("POST", "/api/v1/companies", {
          token,
          body: { name: "Acme failing", country: "US", default_currency: "USD" },
        })
      ).body.data.id
      const eid = (
        await service.request("POST", `/api/v1/companies/${cid}/entities`, {
          token,
          body: { name: "Acme failing", country_alpha2: "US" },
        })
      ).body.data.id
      const answer = await readResponse(
        await fetch(`${service.url}/api/v1/companies/${cid}/entities/${eid}/onboarding/attachments`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}` },
          body: formOf({ file: { bytes: pdf, name: "x.pdf" }, document_type: "other" }),
        }),
      )
      expect(answer.status).toBe(500)
      expect(await storedFiles(service.attachmentsDirectory)).toEqual([])
      expect(await readdir(join(service.attachmentsDirectory, ".incoming"))).toEqual([])
    } finally {
      await service.close()
    }
  })
})

/** An upload whose body is sent in part and held open: its file part has begun, its end is not sent. */
interface HeldUpload {
  /** Sends the rest of the body and answers the status. */
  finish(): Promise<number>
  /** Goes away with the body half sent. */
  abort(): void
}

const holdUpload = (url: string, path: string, token: string): HeldUpload => {
  const boundary = "----held"
  const req: ClientRequest = httpRequest(new URL(path, url), {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": `multipart/form-data; boundary=${boundary}` },
    agent: new Agent({ keepAlive: false }),
  })
  const answered = new Promise<number>((resolve, reject) => {
    req.on("response", (response) => {
      response.resume()
      response.on("end", () => resolve(response.statusCode ?? 0))
    })
    req.on("error", reject)
  })
  answered.catch(() => {})
  req.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="document_type"\r\n\r\nother\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="held.pdf"\r\n\r\n%PDF-1.4\n`,
  )
  return {
    finish: () => {
      req.end(`${" ".repeat(1024)}\r\n--${boundary}--\r\n`)
      return answered
    },
    abort: () => req.destroy(),
  }
}

describe("uploads in progress", () => {
  it("are capped per API key (429) and per process (503) with Retry-After, and free their slot and spool file when they end, finished or cut short", async () => {
    const spool = await mkdtemp(join(tmpdir(), "upload-spool-"))
    const storage = await sqlite.factory()
    const service = await startTestService({
      storage,
      sandbox: true,
      uploads: { perKey: 2, perProcess: 3 },
      uploadSpoolDirectory: spool,
    })
    /** Waits until `count` uploads are being spooled (each one's slot is taken before its file begins). */
    const spooling = async (count: number) => {
      for (let i = 0; i < 500 && (await readdir(spool)).length !== count; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      expect(await readdir(spool)).toHaveLength(count)
    }
    try {
      const [a, b, c] = await Promise.all(
        ["uploads-a", "uploads-b", "uploads-c"].map((workspace) => signedInEntity(service, workspace)),
      )
      const base = (who: { cid: string; eid: string }) =>
        `/api/v1/companies/${who.cid}/entities/${who.eid}/onboarding/attachments`
      const upload = async (who: { token: string; cid: string; eid: string }) =>
        readResponse(
          await fetch(`${service.url}${base(who)}`, {
            method: "POST",
            headers: { Authorization: `Bearer ${who.token}` },
            body: formOf({ file: { bytes: pdf, name: "small.pdf" }, document_type: "other" }),
          }),
        )
      const a1 = holdUpload(service.url, base(a!), a!.token)
      const a2 = holdUpload(service.url, base(a!), a!.token)
      await spooling(2)
      const keyFull = await upload(a!)
      expectError(keyFull, 429, "base", "Too many uploads in progress for this API key. Please try again later.")
      expect(keyFull.headers.get("retry-after")).toBe("5")
      const b1 = holdUpload(service.url, base(b!), b!.token)
      await spooling(3)
      const processFull = await upload(c!)
      expectError(processFull, 503, "base", "Too many uploads in progress. Please try again later.")
      expect(processFull.headers.get("retry-after")).toBe("5")

      expect(await a1.finish()).toBe(201)
      a2.abort()
      await spooling(1)
      expect((await upload(a!)).status).toBe(201)
      expect((await upload(c!)).status).toBe(201)
      expect(await b1.finish()).toBe(201)
      expect(await readdir(spool)).toEqual([])
      const count = async (who: { token: string; cid: string; eid: string }) =>
        (await service.request("GET", base(who), { token: who.token })).body.meta.total_records
      expect([await count(a!), await count(b!), await count(c!)]).toEqual([2, 1, 1])
    } finally {
      await service.close()
      await rm(spool, { recursive: true, force: true })
    }
  })
})
