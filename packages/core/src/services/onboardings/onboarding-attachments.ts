import { Effect } from "effect"
import { type FieldError, type Forbidden, Invalid, NotFound } from "../../errors.ts"
import type { CompanyId, EntityId, OnboardingAttachmentId } from "../../model/ids.ts"
import {
  type AttachmentContentType,
  type AttachmentDocumentType,
  type AttachmentUpload,
  attachmentContentTypes,
  attachmentDocumentTypes,
  attachmentMaxBytes,
  attachmentMessages,
  type OnboardingAttachment,
  sanitisedFileName,
  toOnboardingAttachment,
} from "../../model/onboarding-attachment.ts"
import type { AttachmentContent } from "../../model/types/onboarding-attachment.ts"
import type { BlobStore, FileTypeDetector } from "../../ports/blob-store.ts"
import type { AttachmentRecord } from "../../ports/storage/index.ts"
import { type Page, type PageQuery, pagePolicies } from "../../rules/paging.ts"
import type { Actor } from "../steps/actor.ts"
import { findChangeableOnboardingEntity, findOnboardingEntity, onboardingPage } from "../steps/onboarding-lookups.ts"
import type { ServicePorts } from "../steps/service-ports.ts"
import { inRead, inTransaction } from "../steps/transaction.ts"
import { inWorkspace, writeAccess } from "../steps/use-case.ts"

/** An upload that passed every check but its size: what will be stored, as it is read. */
interface CheckedUpload {
  readonly documentType: AttachmentDocumentType
  readonly fileName: string
  readonly contentType: AttachmentContentType
  readonly bytes: Uint8Array | AsyncIterable<Uint8Array>
}

/** How much of a file's start its type is told from: what file-type reads of a buffer. */
const sniffedBytes = 4100

/** A file's start, and the whole file again (that start first), to be read once. */
interface HeadedFile {
  readonly head: Uint8Array
  readonly bytes: Uint8Array | AsyncIterable<Uint8Array>
  /** Stops reading a file that will not be stored (the source closes, a spool file among them). */
  readonly discard: () => Promise<void>
}

/** Reads just the start of a stream of bytes, keeping what it read for the whole. */
const headOf = async (file: Uint8Array | AsyncIterable<Uint8Array>): Promise<HeadedFile> => {
  if (file instanceof Uint8Array) return { head: file.subarray(0, sniffedBytes), bytes: file, discard: async () => {} }
  const iterator = file[Symbol.asyncIterator]()
  const read: Array<Uint8Array> = []
  let size = 0
  let ended = false
  while (size < sniffedBytes) {
    const next = await iterator.next()
    if (next.done === true) {
      ended = true
      break
    }
    read.push(next.value)
    size += next.value.length
  }
  const head = new Uint8Array(size)
  read.reduce((at, chunk) => {
    head.set(chunk, at)
    return at + chunk.length
  }, 0)
  async function* whole(): AsyncIterable<Uint8Array> {
    yield* read
    if (ended) return
    try {
      for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value
      ended = true
    } finally {
      // Stopped early (too large, a failed write): the source is closed all the same.
      if (!ended) await iterator.return?.()
    }
  }
  return {
    head: head.subarray(0, sniffedBytes),
    bytes: whole(),
    discard: async () => {
      if (!ended) await iterator.return?.()
    },
  }
}

/** Thrown inside a blob store's read when a streamed file passes the largest size: the store drops what it wrote. */
class FileTooLarge extends Error {}

/** The bytes as they are read, stopped with {@link FileTooLarge} as soon as they pass `maxBytes`. */
async function* boundedBytes(bytes: AsyncIterable<Uint8Array>, maxBytes: number): AsyncIterable<Uint8Array> {
  let size = 0
  for await (const chunk of bytes) {
    size += chunk.length
    if (size > maxBytes) throw new FileTooLarge()
    yield chunk
  }
}

const isDocumentType = (value: string): value is AttachmentDocumentType =>
  (attachmentDocumentTypes as ReadonlyArray<string>).includes(value)

const isAllowedContentType = (value: string | undefined): value is AttachmentContentType =>
  value !== undefined && (attachmentContentTypes as ReadonlyArray<string>).includes(value)

/** The port, or a defect naming the option the engine was built without. */
const required = <T>(port: T | undefined, option: string): Effect.Effect<T> =>
  port === undefined
    ? Effect.dieMessage(`the engine was built without ${option}: attachments need one`)
    : Effect.succeed(port)

/**
 * Use cases of an onboarding's attachments (supporting documents): upload, list, get, download,
 * delete. The entity is found as for the rest of the onboarding (another company's is
 * `not_found`); uploads and deletes are `forbidden` once its payment integration is active.
 * A row exists only with its bytes: bytes are written before the row and removed when the row
 * is not written; a delete removes the row first, then the bytes.
 */
export const makeOnboardingAttachments = (ports: ServicePorts) => {
  const blobStore = () => required<BlobStore>(ports.blobStore, "a blobStore")
  const detector = () => required<FileTypeDetector>(ports.fileTypeDetector, "a fileTypeDetector")
  const notFound = () => new NotFound({ field: "id", message: attachmentMessages.notFound })

  /** The entity's attachment, in a transaction of its own; `not_found` for another entity's or none. */
  const findAttachment = (actor: Actor, companyId: CompanyId, entityId: EntityId, id: OnboardingAttachmentId) =>
    inRead(ports.storage, (tx) =>
      Effect.gen(function* () {
        const entity = yield* findOnboardingEntity(tx, actor, companyId, entityId)
        const row = yield* tx.onboardingAttachments.find(actor.workspaceId, entity.id, id)
        if (row === undefined) return yield* Effect.fail(notFound())
        return toOnboardingAttachment(row)
      }),
    )

  /**
   * Every problem of the upload found before it is stored, at once: the file's type judged by
   * its first bytes only. A streamed file's size is known only as it is stored.
   */
  const checked = (upload: AttachmentUpload): Effect.Effect<CheckedUpload, Invalid> =>
    Effect.gen(function* () {
      const errors: Array<FieldError> = []
      const documentType = upload.document_type
      if (documentType === undefined || documentType.trim() === "") {
        errors.push({ field: "document_type", message: attachmentMessages.documentTypeRequired })
      } else if (!isDocumentType(documentType)) {
        errors.push({ field: "document_type", message: attachmentMessages.documentType })
      }
      const file = upload.file
      let contentType: string | undefined
      let headed: HeadedFile | undefined
      if (file === undefined) errors.push({ field: "file", message: attachmentMessages.fileRequired })
      else if (file.bytes instanceof Uint8Array && file.bytes.length > attachmentMaxBytes) {
        errors.push({ field: "file", message: attachmentMessages.fileTooLarge })
      } else {
        const opened = yield* Effect.promise(() => headOf(file.bytes))
        headed = opened
        if (opened.head.length === 0) errors.push({ field: "file", message: attachmentMessages.fileEmpty })
        else {
          const types = yield* detector()
          contentType = yield* Effect.promise(() => types.detect(opened.head))
          if (!isAllowedContentType(contentType)) errors.push({ field: "file", message: attachmentMessages.fileType })
        }
      }
      if (errors.length > 0 || file === undefined || headed === undefined || !isAllowedContentType(contentType)) {
        if (headed !== undefined) yield* Effect.promise(headed.discard)
        return yield* Effect.fail(new Invalid({ kind: "invalid", errors }))
      }
      return {
        documentType: documentType as AttachmentDocumentType,
        fileName: sanitisedFileName(file.name),
        contentType,
        bytes: headed.bytes,
      }
    })

  /**
   * Writes the bytes under `id` as they are read, within the largest size: `fileTooLarge` when
   * they pass it, and then, as when the read fails, nothing is left under `id`.
   */
  const stored = (blobs: BlobStore, id: string, bytes: Uint8Array | AsyncIterable<Uint8Array>) =>
    Effect.tryPromise({
      try: () => blobs.put(id, bytes instanceof Uint8Array ? bytes : boundedBytes(bytes, attachmentMaxBytes)),
      catch: (error) => error,
    }).pipe(
      Effect.tapError(() => Effect.promise(() => blobs.delete(id).catch(() => false))),
      Effect.catchAll((error) =>
        error instanceof FileTooLarge
          ? Effect.fail(Invalid.rule("file", attachmentMessages.fileTooLarge))
          : Effect.die(error),
      ),
    )

  return {
    /**
     * Stores a supporting document: its type detected from its first bytes (PDF, PNG or JPEG
     * only), at most 10 MiB (10,485,760 bytes), with its SHA-256 and its name made safe. The
     * bytes (whole, or a stream read once) go to the blob store as they are read, which counts
     * and hashes them; a stream that passes 10 MiB or fails leaves nothing stored. If the row
     * then cannot be written, the bytes are removed again.
     *
     * @example
     * await engine.onboardingAttachments.create(actor, cid, eid, {
     *   document_type: "bank_statement",
     *   file: { name: "statement.pdf", bytes },
     * })
     */
    create: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      upload: AttachmentUpload,
    ): Effect.Effect<OnboardingAttachment, Invalid | Forbidden | NotFound> =>
      Effect.gen(function* () {
        // Refuse a missing or frozen entity before any byte is stored. The id is made in the
        // transaction, so a keyed request replayed after a crash writes its bytes under the same
        // blob key again instead of leaving a second copy.
        const id = yield* inTransaction(ports.storage, (tx) =>
          Effect.as(findChangeableOnboardingEntity(tx, actor, companyId, entityId), ports.ids.next("att")),
        )
        const blobs = yield* blobStore()
        const input = yield* checked(upload)
        const blob = yield* stored(blobs, id, input.bytes)
        return yield* inWorkspace(ports, actor, ({ tx, readClock }) =>
          Effect.gen(function* () {
            const entity = yield* findChangeableOnboardingEntity(tx, actor, companyId, entityId)
            const clock = yield* readClock
            const row: AttachmentRecord = {
              id,
              workspace_id: actor.workspaceId,
              company_id: entity.company_id,
              entity_id: entity.id,
              document_type: input.documentType,
              file_name: input.fileName,
              content_type: input.contentType,
              size_bytes: blob.size,
              sha256: blob.sha256,
              created_at: clock.now().toISOString(),
            }
            yield* tx.onboardingAttachments.insert(row)
            return toOnboardingAttachment(row)
          }),
        ).pipe(
          // No row, no bytes: whatever stopped the row (a refusal, a failed commit, a defect).
          Effect.onError(() => Effect.promise(() => blobs.delete(id).catch(() => false))),
        )
      }).pipe(writeAccess(actor)),

    /** The entity's attachments, oldest first (id order), 25 a page. */
    list: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      query: PageQuery = {},
    ): Effect.Effect<Page<OnboardingAttachment>, Invalid | NotFound> =>
      onboardingPage(
        ports,
        actor,
        { companyId, entityId },
        query,
        pagePolicies.onboardingAttachments,
        (tx, entity, window) => tx.onboardingAttachments.list(actor.workspaceId, entity, window),
        toOnboardingAttachment,
      ),

    /** An attachment of the entity (its row, not its bytes). */
    get: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      id: OnboardingAttachmentId,
    ): Effect.Effect<OnboardingAttachment, NotFound> => findAttachment(actor, companyId, entityId, id),

    /**
     * An attachment's row and its bytes, for a download.
     *
     * @example
     * declare const id: OnboardingAttachmentId
     * const { attachment, bytes } = await engine.onboardingAttachments.content(actor, cid, eid, id)
     */
    content: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      id: OnboardingAttachmentId,
    ): Effect.Effect<AttachmentContent, NotFound> =>
      Effect.gen(function* () {
        const attachment = yield* findAttachment(actor, companyId, entityId, id)
        const blobs = yield* blobStore()
        const bytes = yield* Effect.promise(() => blobs.get(attachment.id))
        // A row without bytes breaks the rule this service keeps: a fault, not the caller's.
        if (bytes === undefined) return yield* Effect.dieMessage(`the bytes of attachment ${attachment.id} are missing`)
        return { attachment, bytes }
      }),

    /** Removes an attachment: its row, then its bytes. */
    delete: (
      actor: Actor,
      companyId: CompanyId,
      entityId: EntityId,
      id: OnboardingAttachmentId,
    ): Effect.Effect<void, Forbidden | NotFound> =>
      Effect.gen(function* () {
        const blobs = yield* blobStore()
        yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const entity = yield* findChangeableOnboardingEntity(tx, actor, companyId, entityId)
            if (!(yield* tx.onboardingAttachments.delete(actor.workspaceId, entity.id, id))) {
              return yield* Effect.fail(notFound())
            }
          }),
        )
        yield* Effect.promise(() => blobs.delete(id))
      }).pipe(writeAccess(actor)),
  }
}

export type OnboardingAttachments = ReturnType<typeof makeOnboardingAttachments>
