import { Effect } from "effect"
import { type FieldError, type Forbidden, Invalid, NotFound } from "../errors.ts"
import type { CompanyId, EntityId, OnboardingAttachmentId } from "../model/ids.ts"
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
} from "../model/onboarding-attachment.ts"
import type { BlobStore, FileTypeDetector } from "../ports/blob-store.ts"
import type { AttachmentRecord } from "../ports/storage/index.ts"
import { type Page, type PageQuery, pagePolicies } from "../rules/paging.ts"
import { type Actor, requireWrite } from "./actor.ts"
import { findChangeableOnboardingEntity, findOnboardingEntity, onboardingPage } from "./onboarding-scope.ts"
import type { ServicePorts } from "./ports.ts"
import { inTransaction } from "./transaction.ts"
import { workspaceClock } from "./workspace-clock.ts"

/** An upload that passed every check: what will be stored. */
interface CheckedUpload {
  readonly documentType: AttachmentDocumentType
  readonly fileName: string
  readonly contentType: AttachmentContentType
  readonly bytes: Uint8Array
}

/** An attachment's download: its row and its bytes, read as they are consumed. */
export interface AttachmentContent {
  readonly attachment: OnboardingAttachment
  readonly bytes: AsyncIterable<Uint8Array>
}

const isDocumentType = (value: string): value is AttachmentDocumentType =>
  (attachmentDocumentTypes as ReadonlyArray<string>).includes(value)

const isAllowedContentType = (value: string | undefined): value is AttachmentContentType =>
  value !== undefined && (attachmentContentTypes as ReadonlyArray<string>).includes(value)

/** Lower-case hex SHA-256 of `bytes` (WebCrypto, so no Node module). */
const sha256Hex = (bytes: Uint8Array): Effect.Effect<string> =>
  Effect.promise(async () => {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>))
    return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("")
  })

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
    inTransaction(ports.storage, (tx) =>
      Effect.gen(function* () {
        const entity = yield* findOnboardingEntity(tx, actor, companyId, entityId)
        const row = yield* tx.onboardingAttachments.find(actor.workspaceId, entity.id, id)
        if (row === undefined) return yield* Effect.fail(notFound())
        return toOnboardingAttachment(row)
      }),
    )

  /** Every problem of the upload at once, the file's type judged by its content only. */
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
      if (file === undefined) errors.push({ field: "file", message: attachmentMessages.fileRequired })
      else if (file.bytes.length === 0) errors.push({ field: "file", message: attachmentMessages.fileEmpty })
      else if (file.bytes.length > attachmentMaxBytes) {
        errors.push({ field: "file", message: attachmentMessages.fileTooLarge })
      } else {
        const types = yield* detector()
        contentType = yield* Effect.promise(() => types.detect(file.bytes))
        if (!isAllowedContentType(contentType)) errors.push({ field: "file", message: attachmentMessages.fileType })
      }
      if (errors.length > 0 || file === undefined || !isAllowedContentType(contentType)) {
        return yield* Effect.fail(new Invalid({ kind: "invalid", errors }))
      }
      return {
        documentType: documentType as AttachmentDocumentType,
        fileName: sanitisedFileName(file.name),
        contentType,
        bytes: file.bytes,
      }
    })

  return {
    /**
     * Stores a supporting document: its type detected from its content (PDF, PNG or JPEG only),
     * at most 10 MB, with its SHA-256 and its name made safe. The bytes are written first; if
     * the row then cannot be written, they are removed again.
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
        yield* requireWrite(actor)
        // Refuse a missing or frozen entity before any byte is stored. The id is made in the
        // transaction, so a keyed request replayed after a crash writes its bytes under the same
        // blob key again instead of leaving a second copy.
        const id = yield* inTransaction(ports.storage, (tx) =>
          Effect.as(findChangeableOnboardingEntity(tx, actor, companyId, entityId), ports.ids.next("att")),
        )
        const input = yield* checked(upload)
        const sha256 = yield* sha256Hex(input.bytes)
        const blobs = yield* blobStore()
        yield* Effect.promise(() => blobs.put(id, input.bytes))
        return yield* inTransaction(ports.storage, (tx) =>
          Effect.gen(function* () {
            const entity = yield* findChangeableOnboardingEntity(tx, actor, companyId, entityId)
            const clock = yield* workspaceClock(ports, tx, actor.workspaceId)
            const row: AttachmentRecord = {
              id,
              workspace_id: actor.workspaceId,
              company_id: entity.company_id,
              entity_id: entity.id,
              document_type: input.documentType,
              file_name: input.fileName,
              content_type: input.contentType,
              size_bytes: input.bytes.length,
              sha256,
              created_at: clock.now().toISOString(),
            }
            yield* tx.onboardingAttachments.insert(row)
            return toOnboardingAttachment(row)
          }),
        ).pipe(
          // No row, no bytes: whatever stopped the row (a refusal, a failed commit, a defect).
          Effect.onError(() => Effect.promise(() => blobs.delete(id).catch(() => false))),
        )
      }),

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
        yield* requireWrite(actor)
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
      }),
  }
}

export type OnboardingAttachments = ReturnType<typeof makeOnboardingAttachments>
