import { attachmentContentTypes } from "@payments-engine/core"
import {
  AttachmentUploadForm,
  attachmentMaxBytes,
  CompanyId,
  EntityId,
  EntityOnboarding,
  OnboardingAttachment,
  OnboardingAttachmentId,
  OnboardingPerson,
  OnboardingPersonId,
  OnboardingUpdate,
  PersonInput,
  pagePolicies,
} from "@payments-engine/core/effect"
import { Schema } from "effect"
import type { MultipartForm } from "../uploaded-form.ts"
import type { FileResponse, RouteCall, RouteSpec } from "./route-table.ts"

const tag = "Entity onboarding"
const base = "/api/v1/companies/{cid}/entities/{eid}/onboarding"

/** The company and entity of the path. */
const scopeOf = ({ pathId }: RouteCall) => [pathId("cid", CompanyId), pathId("eid", EntityId)] as const

/** The engine's upload from the form's parts: `document_type` and the `file` part, nothing decided here. */
const uploadOf = (form: MultipartForm | undefined) => ({
  document_type: form?.fields.document_type,
  file: form?.file?.field === "file" ? { name: form.file.name, bytes: form.file.bytes() } : undefined,
})

/**
 * Rows of an entity's onboarding: the record (business details, addresses, identifiers, primary
 * contact; `data: null` before anything is saved, created by the first PATCH), its persons and
 * its attachments (uploaded as `multipart/form-data`, downloaded as they were sent). Once the
 * entity's payment integration is active, changes answer 403.
 *
 * @example
 * const app = createApp({ engine, tokens, routes: [...onboardingRoutes] })
 */
export const onboardingRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: "GET",
    path: base,
    operationId: "getEntityOnboarding",
    summary: "Fetch the entity's onboarding with its persons; data is null before anything is saved",
    tag,
    auth: "bearer",
    response: { kind: "data", schema: Schema.NullOr(EntityOnboarding) },
    status: 200,
    errors: [401, 404],
    handle: (call) => call.engine.onboardings.get(call.actor, ...scopeOf(call)),
  },
  {
    method: "PATCH",
    path: base,
    operationId: "updateEntityOnboarding",
    summary:
      "Save any section of the onboarding (creates it on first use); business_identifiers given replace every identifier",
    tag,
    auth: "bearer",
    request: OnboardingUpdate,
    response: { kind: "data", schema: EntityOnboarding },
    status: 200,
    errors: [400, 401, 403, 404, 409, 413, 415, 422],
    handle: (call) => call.engine.onboardings.update(call.actor, ...scopeOf(call), call.body),
  },
  {
    method: "GET",
    path: `${base}/persons`,
    operationId: "listOnboardingPersons",
    summary: "Persons of the entity's onboarding, tax ids masked",
    tag,
    auth: "bearer",
    paging: pagePolicies.onboardingPersons,
    response: { kind: "page", schema: OnboardingPerson },
    status: 200,
    errors: [400, 401, 404],
    handle: (call) => call.engine.onboardings.listPersons(call.actor, ...scopeOf(call), call.query),
  },
  {
    method: "POST",
    path: `${base}/persons`,
    operationId: "createOnboardingPerson",
    summary: "Add a person (every field optional); the answer echoes a tax id in full, this once",
    tag,
    auth: "bearer",
    request: PersonInput,
    response: { kind: "data", schema: OnboardingPerson },
    status: 201,
    errors: [400, 401, 403, 404, 409, 413, 415, 422],
    handle: (call) => call.engine.onboardings.createPerson(call.actor, ...scopeOf(call), call.body),
  },
  {
    method: "GET",
    path: `${base}/persons/{id}`,
    operationId: "getOnboardingPerson",
    summary: "Fetch a person, its tax id masked to the last four characters",
    tag,
    auth: "bearer",
    response: { kind: "data", schema: OnboardingPerson },
    status: 200,
    errors: [401, 404],
    handle: (call) =>
      call.engine.onboardings.getPerson(call.actor, ...scopeOf(call), call.pathId("id", OnboardingPersonId)),
  },
  {
    method: "PATCH",
    path: `${base}/persons/{id}`,
    operationId: "updateOnboardingPerson",
    summary: "Change any of a person's fields; identifications given replace the person's",
    tag,
    auth: "bearer",
    request: PersonInput,
    response: { kind: "data", schema: OnboardingPerson },
    status: 200,
    errors: [400, 401, 403, 404, 409, 413, 415, 422],
    handle: (call) =>
      call.engine.onboardings.updatePerson(
        call.actor,
        ...scopeOf(call),
        call.pathId("id", OnboardingPersonId),
        call.body,
      ),
  },
  {
    method: "DELETE",
    path: `${base}/persons/{id}`,
    operationId: "deleteOnboardingPerson",
    summary: "Remove a person",
    tag,
    auth: "bearer",
    response: { kind: "empty" },
    status: 204,
    errors: [401, 403, 404],
    handle: (call) =>
      call.engine.onboardings.deletePerson(call.actor, ...scopeOf(call), call.pathId("id", OnboardingPersonId)),
  },
  {
    method: "GET",
    path: `${base}/attachments`,
    operationId: "listOnboardingAttachments",
    summary: "Supporting documents of the entity's onboarding, oldest first",
    tag,
    auth: "bearer",
    paging: pagePolicies.onboardingAttachments,
    response: { kind: "page", schema: OnboardingAttachment },
    status: 200,
    errors: [400, 401, 404],
    handle: (call) => call.engine.onboardingAttachments.list(call.actor, ...scopeOf(call), call.query),
  },
  {
    method: "POST",
    path: `${base}/attachments`,
    operationId: "createOnboardingAttachment",
    summary:
      "Upload a supporting document (multipart/form-data: file and document_type); PDF, PNG or JPEG judged by its content, 10 MiB (10,485,760 bytes) at most",
    tag,
    auth: "bearer",
    upload: { form: AttachmentUploadForm, maxFileBytes: attachmentMaxBytes },
    response: { kind: "data", schema: OnboardingAttachment },
    status: 201,
    errors: [400, 401, 403, 404, 409, 413, 415, 422],
    handle: (call) => call.engine.onboardingAttachments.create(call.actor, ...scopeOf(call), uploadOf(call.form)),
  },
  {
    method: "GET",
    path: `${base}/attachments/{id}`,
    operationId: "getOnboardingAttachment",
    summary: "Fetch an attachment's details (not its bytes)",
    tag,
    auth: "bearer",
    response: { kind: "data", schema: OnboardingAttachment },
    status: 200,
    errors: [401, 404],
    handle: (call) =>
      call.engine.onboardingAttachments.get(call.actor, ...scopeOf(call), call.pathId("id", OnboardingAttachmentId)),
  },
  {
    method: "GET",
    path: `${base}/attachments/{id}/content`,
    operationId: "downloadOnboardingAttachment",
    summary: "Download an attachment's bytes, with its detected content type, as an attachment (never rendered inline)",
    tag,
    auth: "bearer",
    response: { kind: "file", contentTypes: attachmentContentTypes },
    status: 200,
    errors: [401, 404],
    handle: async (call): Promise<FileResponse> => {
      const { attachment, bytes } = await call.engine.onboardingAttachments.content(
        call.actor,
        ...scopeOf(call),
        call.pathId("id", OnboardingAttachmentId),
      )
      return {
        contentType: attachment.content_type,
        fileName: attachment.file_name,
        size: attachment.size_bytes,
        bytes,
      }
    },
  },
  {
    method: "DELETE",
    path: `${base}/attachments/{id}`,
    operationId: "deleteOnboardingAttachment",
    summary: "Remove an attachment and its bytes",
    tag,
    auth: "bearer",
    response: { kind: "empty" },
    status: 204,
    errors: [401, 403, 404],
    handle: (call) =>
      call.engine.onboardingAttachments.delete(call.actor, ...scopeOf(call), call.pathId("id", OnboardingAttachmentId)),
  },
]
