/** The part of the engine a job runner drives. */
export interface JobRunnerEngine {
  readonly jobs: {
    runDue(limit?: number): Promise<{ readonly ran: number; readonly failed: number }>
    nextRunAt(): Promise<string | undefined>
  }
}

export interface JobRunnerOptions {
  /** Longest sleep between passes, so jobs queued by other processes are found. Default 1000 ms. */
  readonly pollMs?: number
  /** The engine's clock, to sleep exactly until the next job is due. */
  readonly now?: () => Date
  /** Told about passes that ran jobs and about failures of the runner itself. */
  readonly log?: (event: { readonly ran: number; readonly failed: number } | { readonly error: unknown }) => void
}

/** A started runner: `wake` after queueing work, `stop` before closing the storage. */
export interface JobRunner {
  /** Runs a pass now (coalesced with one already running). */
  wake(): void
  /** Stops after the pass in flight; resolves once it has finished. */
  stop(): Promise<void>
}

/**
 * Runs the engine's background jobs in this process: a pass runs every due job, then the runner
 * sleeps until the next job is due, `pollMs` at most, or until woken. Several processes may each
 * run one on a shared Postgres: the storage hands every job to exactly one of them.
 *
 * @example
 * const runner = startJobRunner(engine, { pollMs: 500 })
 * process.on("SIGTERM", async () => { await runner.stop(); await engine.close() })
 */
export const startJobRunner = (engine: JobRunnerEngine, options: JobRunnerOptions = {}): JobRunner => {
  const pollMs = options.pollMs ?? 1000
  const now = options.now ?? (() => new Date())
  let stopped = false
  let again = false
  let running: Promise<void> | undefined
  let timer: ReturnType<typeof setTimeout> | undefined

  const schedule = (ms: number) => {
    if (stopped) return
    clearTimeout(timer)
    timer = setTimeout(wake, Math.max(0, Math.min(ms, pollMs)))
    timer.unref?.()
  }

  const pass = async () => {
    try {
      for (;;) {
        const report = await engine.jobs.runDue()
        if (report.ran > 0) options.log?.(report)
        if (report.ran === 0 || stopped) break
      }
      const next = await engine.jobs.nextRunAt()
      schedule(next === undefined ? pollMs : Date.parse(next) - now().getTime())
    } catch (error) {
      options.log?.({ error })
      schedule(pollMs)
    }
  }

  function wake(): void {
    if (stopped) return
    if (running) {
      again = true
      return
    }
    running = pass().finally(() => {
      running = undefined
      if (again) {
        again = false
        wake()
      }
    })
  }

  wake()
  return {
    wake,
    stop: async () => {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
