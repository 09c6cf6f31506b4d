/*
 * What of a use case's answer must not be stored in the clear: each resource whose answer shows
 * a secret once declares it beside its use cases, and the idempotency records, which remember
 * answers for replay, keep those parts sealed.
 */

/** A secret inside the items of a list of an answer's `data`. */
export interface ListedAnswerSecret {
  /** The list of `data` that holds the items, e.g. `identifications`. */
  readonly list: string
  /** Whether an item of the list holds the secret. */
  readonly holds: (item: object) => boolean
  /** The item's field that is the secret. */
  readonly field: string
  /** What a replay shows in its place when it can no longer be opened (the server secret rotated). */
  readonly unopenable: unknown
}

/**
 * The secrets of a resource's answers, shown once: fields of `data`, left out of a replay that
 * can no longer open them, and secrets inside the items of a list of `data`.
 */
export interface AnswerSecrets {
  readonly fields?: ReadonlyArray<string>
  readonly listed?: ReadonlyArray<ListedAnswerSecret>
}

/** The secrets of several resources' answers, as one declaration. */
export const allAnswerSecrets = (declared: ReadonlyArray<AnswerSecrets>): Required<AnswerSecrets> => ({
  fields: declared.flatMap((secrets) => secrets.fields ?? []),
  listed: declared.flatMap((secrets) => secrets.listed ?? []),
})
