import type { EntityId, OnboardingId, OnboardingPersonId, WorkspaceId } from "../../model/types/ids.ts"
import type { OnboardingRecord } from "../../model/types/onboarding.ts"
import type { PersonRecord } from "../../model/types/onboarding-person.ts"
import type { Awaitable } from "../awaitable.ts"
import type { Slice, Window } from "./list-window.ts"

export type { OnboardingRecord } from "../../model/types/onboarding.ts"
export type { PersonRecord } from "../../model/types/onboarding-person.ts"

/** What an onboarding update writes: any of its fields but its tenancy and id, with its time. */
export type OnboardingChange = Partial<
  Omit<OnboardingRecord, "id" | "workspace_id" | "company_id" | "entity_id" | "created_at" | "updated_at">
> &
  Pick<OnboardingRecord, "updated_at">

/** What the feature's move writes onto the onboarding: its status and the time it was submitted or approved. */
export type OnboardingStatusChange = Pick<OnboardingRecord, "status" | "updated_at"> &
  Partial<Pick<OnboardingRecord, "submitted_at" | "approved_at">>

/**
 * Onboarding records, one per entity, each read and written under its workspace and entity.
 */
export interface OnboardingRepository {
  /**
   * Inserts the entity's onboarding unless it already has one: true when inserted. Of two racing
   * inserts for one entity, one is told false.
   */
  insertIfNone(row: OnboardingRecord): Awaitable<boolean>
  /** The entity's onboarding in the workspace, else undefined. */
  findByEntity(workspaceId: WorkspaceId, entityId: EntityId): Awaitable<OnboardingRecord | undefined>
  /** Writes `change` to the onboarding: the onboarding as it now is, else undefined. */
  update(workspaceId: WorkspaceId, id: OnboardingId, change: OnboardingChange): Awaitable<OnboardingRecord | undefined>
  /** Writes the feature's status onto the entity's onboarding, when it has one: false when it has none. */
  setStatus(workspaceId: WorkspaceId, entityId: EntityId, change: OnboardingStatusChange): Awaitable<boolean>
}

/** What a person update writes: its fields (JSON text) and time. */
export type PersonChange = Pick<PersonRecord, "details" | "updated_at">

/**
 * The persons of entities' onboardings, each read and written under its workspace and entity.
 * A deleted person is gone: the row is removed, with the identifications in it.
 */
export interface PersonRepository {
  insert(row: PersonRecord): Awaitable<void>
  /** The entity's person with that id in the workspace, else undefined. */
  find(workspaceId: WorkspaceId, entityId: EntityId, id: OnboardingPersonId): Awaitable<PersonRecord | undefined>
  /** The entity's persons, in id order. */
  list(workspaceId: WorkspaceId, entityId: EntityId, window: Window): Awaitable<Slice<PersonRecord>>
  /** Every person of the entity, in id order (the onboarding shows them all). */
  listAll(workspaceId: WorkspaceId, entityId: EntityId): Awaitable<ReadonlyArray<PersonRecord>>
  /** Writes `change` to the person: the person as it now is, else undefined. */
  update(
    workspaceId: WorkspaceId,
    entityId: EntityId,
    id: OnboardingPersonId,
    change: PersonChange,
  ): Awaitable<PersonRecord | undefined>
  /** Removes the person; false when there was none. */
  delete(workspaceId: WorkspaceId, entityId: EntityId, id: OnboardingPersonId): Awaitable<boolean>
}
