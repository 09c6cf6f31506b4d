import type { CompanyId, EntityId, OnboardingAttachmentId, WorkspaceId } from "./ids.ts"

// The types of `model/onboarding-attachment.ts`, written out (docs/decisions.md, "Public types").

/** What a supporting document of an onboarding is (DECISIONS "Attachments"). */
export const attachmentDocumentTypes = [
  "certificate_of_incorporation",
  "proof_of_address",
  "bank_statement",
  "identity_document",
  "other",
] as const
export type AttachmentDocumentType = (typeof attachmentDocumentTypes)[number]
/** The media types an attachment may be, as detected from its first bytes: PDF, PNG, JPEG. */
export const attachmentContentTypes = ["application/pdf", "image/png", "image/jpeg"] as const
export type AttachmentContentType = (typeof attachmentContentTypes)[number]

/** A supporting document of an entity's onboarding, as the API returns it. */
export interface OnboardingAttachment {
  readonly id: OnboardingAttachmentId
  readonly document_type: AttachmentDocumentType
  /** The name the client gave, without any directory, control characters removed, at most 255 characters. */
  readonly file_name: string
  /** Detected from the file's content, never taken from the client. */
  readonly content_type: AttachmentContentType
  /** The file's size in bytes. */
  readonly size_bytes: number
  /** SHA-256 of the file's bytes, lower-case hex. */
  readonly sha256: string
  readonly created_at: string
}

/** An onboarding attachment as storage keeps it. Its bytes are in the blob store. */
export interface AttachmentRecord {
  readonly id: OnboardingAttachmentId
  readonly workspace_id: WorkspaceId
  readonly company_id: CompanyId
  readonly entity_id: EntityId
  readonly document_type: AttachmentDocumentType
  readonly file_name: string
  readonly content_type: AttachmentContentType
  readonly size_bytes: number
  readonly sha256: string
  readonly created_at: string
}

/**
 * An upload as the engine takes it: the parts a binding read from the request, unchecked. The
 * engine checks them (type from the content, size, document type); the bytes, whole or as a
 * stream, go to the blob store as they are read, which gives back their size and digest.
 */
export interface AttachmentUpload {
  readonly document_type?: string | undefined
  readonly file?: { readonly name: string; readonly bytes: Uint8Array | AsyncIterable<Uint8Array> } | undefined
}

/** An attachment's download: its row and its bytes, read as they are consumed. */
export interface AttachmentContent {
  readonly attachment: OnboardingAttachment
  readonly bytes: AsyncIterable<Uint8Array>
}
