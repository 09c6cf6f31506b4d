import { Schema } from "effect"
import { Timestamp } from "./fields.ts"
import { CompanyId, EntityId, OnboardingAttachmentId, WorkspaceId } from "./ids.ts"
import type * as Types from "./types/onboarding-attachment.ts"
import type { AttachmentRecord } from "./types/onboarding-attachment.ts"
import { attachmentContentTypes, attachmentDocumentTypes } from "./types/onboarding-attachment.ts"

export * from "./types/onboarding-attachment.ts"

/** The largest attachment: 10 MiB (DECISIONS "Attachments" and "Size and type"). */
export const attachmentMaxBytes = 10 * 1024 * 1024

/** The longest file name kept, in characters (a longer one keeps its end, where the extension is). */
export const attachmentFileNameMaxLength = 255

/** The name given to a file whose name is empty once cleaned. */
export const defaultAttachmentFileName = "attachment"

/** Messages of attachment uploads, in the spec's style. */
export const attachmentMessages = {
  notFound: "Attachment not found or not accessible in this entity",
  fileRequired: "File is required",
  fileEmpty: "File is empty",
  fileTooLarge: `File is too large (maximum is ${attachmentMaxBytes / (1024 * 1024)} MiB)`,
  fileType: "File must be a PDF, PNG or JPEG document (judged by its content, not its name or declared type)",
  documentTypeRequired: "Document type is required",
  documentType: `must be one of: ${attachmentDocumentTypes.join(", ")}`,
} as const

const onboardingAttachmentFields = {
  id: OnboardingAttachmentId,
  document_type: Schema.Literal(...attachmentDocumentTypes),
  file_name: Schema.String.annotations({
    description: "The name the client gave, without any directory, control characters removed, at most 255 characters",
  }),
  content_type: Schema.Literal(...attachmentContentTypes).annotations({
    description: "Detected from the file's content, never taken from the client",
  }),
  size_bytes: Schema.Number.annotations({ description: "The file's size in bytes" }),
  sha256: Schema.String.annotations({ description: "SHA-256 of the file's bytes, lower-case hex" }),
  created_at: Timestamp,
}

/** The Schema of {@link OnboardingAttachment}, named so that declarations refer to it instead of copying it. */
export interface OnboardingAttachmentSchema extends Schema.Struct<typeof onboardingAttachmentFields> {}
/** A supporting document of an entity's onboarding, as the API returns it. */
export const OnboardingAttachment: OnboardingAttachmentSchema = Schema.Struct(onboardingAttachmentFields).annotations({
  identifier: "OnboardingAttachment",
})
export type OnboardingAttachment = Types.OnboardingAttachment

const storedAttachmentFields = {
  id: OnboardingAttachmentId,
  workspace_id: WorkspaceId,
  company_id: CompanyId,
  entity_id: EntityId,
  document_type: Schema.Literal(...attachmentDocumentTypes),
  file_name: Schema.String,
  content_type: Schema.Literal(...attachmentContentTypes),
  size_bytes: Schema.Number,
  sha256: Schema.String,
  created_at: Timestamp,
}

/** The Schema of {@link StoredAttachment}, named so that declarations refer to it instead of copying it. */
export interface StoredAttachmentSchema extends Schema.Struct<typeof storedAttachmentFields> {}
/** An attachment as storage keeps it: the wire fields and its tenancy. Its bytes are in the blob store under its id. */
export const StoredAttachment: StoredAttachmentSchema = Schema.Struct(storedAttachmentFields)

const attachmentUploadFormFields = {
  file: Schema.String.annotations({
    jsonSchema: {
      type: "string",
      format: "binary",
      description: "The document: PDF, PNG or JPEG (judged by its content), at most 10 MiB (10,485,760 bytes)",
    },
  }),
  document_type: Schema.Literal(...attachmentDocumentTypes),
}

/** The Schema of {@link AttachmentUploadForm}, named so that declarations refer to it instead of copying it. */
export interface AttachmentUploadFormSchema extends Schema.Struct<typeof attachmentUploadFormFields> {}
/**
 * The form fields of an upload, documentation of `multipart/form-data` for the OpenAPI document:
 * the binding reads the parts and hands the engine an {@link AttachmentUpload}.
 */
export const AttachmentUploadForm: AttachmentUploadFormSchema = Schema.Struct(attachmentUploadFormFields).annotations({
  identifier: "AttachmentUploadForm",
})

/**
 * The client's file name made safe to keep and to show: its last path segment (after `/` or `\`),
 * without control characters or quotes, trimmed, at most 255 characters (a longer name keeps its
 * end, so the extension stays); `attachment` when nothing is left, or for `.` and `..`.
 *
 * @example
 * sanitisedFileName("C:\\Users\\me\\statement.pdf") // "statement.pdf"
 * sanitisedFileName("../../etc/passwd") // "passwd"
 */
export const sanitisedFileName = (name: string): string => {
  const base = name.split(/[/\\]/).pop() ?? ""
  // Control characters (C0, DEL, C1), quotes and the bidirectional overrides that disguise an extension.
  const cleaned = base.replace(/[\p{Cc}"\u202a-\u202e\u2066-\u2069]/gu, "").trim()
  if (cleaned === "" || cleaned === "." || cleaned === "..") return defaultAttachmentFileName
  const characters = [...cleaned]
  return characters.length <= attachmentFileNameMaxLength
    ? cleaned
    : characters.slice(characters.length - attachmentFileNameMaxLength).join("")
}

/** A stored attachment as the API returns it. */
export const toOnboardingAttachment = (row: AttachmentRecord): OnboardingAttachment => ({
  id: row.id,
  document_type: row.document_type,
  file_name: row.file_name,
  content_type: row.content_type,
  size_bytes: row.size_bytes,
  sha256: row.sha256,
  created_at: row.created_at,
})
