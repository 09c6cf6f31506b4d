// The types of `model/test-clock.ts`, written out (docs/decisions.md, "Public types").

/** Body of the sandbox's test clock advance, as an embedder writes it (the schema's encoded type: what it decodes from). */
export interface ClockAdvanceBody {
  readonly seconds: number
}

/** Answer of `POST /api/v1/sandbox/clock/advance`. */
export interface ClockAdvanced {
  /** The workspace's test clock's new time, ISO 8601. */
  readonly now: string
  /** Background jobs of the workspace that ran. */
  readonly jobs_run: number
}
