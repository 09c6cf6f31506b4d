/**
 * The circuit breaker of a webhook endpoint: after {@link circuitThreshold} failed attempts in a
 * row its circuit opens, and its deliveries wait for a cool-down instead of spending attempts on a
 * receiver that does not answer. After the cool-down one delivery goes as a probe (half-open): a
 * 200 closes the circuit, a failure opens it again for twice as long, up to an hour.
 */

/** Failed attempts in a row that open an endpoint's circuit. */
export const circuitThreshold = 5

const minute = 60 * 1000
/** The first cool-down, after {@link circuitThreshold} failures in a row. */
export const firstCoolDownMs = minute
/** The longest cool-down: an endpoint down for a day is still probed every hour. */
export const longestCoolDownMs = 60 * minute

/** What storage keeps of an endpoint's circuit. */
export interface CircuitState {
  /** Failed attempts since its last 200. */
  readonly consecutive_failures: number
  /** While open, until when its deliveries wait; null while closed. */
  readonly circuit_open_until: string | null
  /** When its run of failures began (the first failed attempt since its last 200); null after a 200. */
  readonly failing_since: string | null
}

/** A closed circuit: what a new endpoint has, and what a 200 leaves. */
export const closedCircuit: CircuitState = { consecutive_failures: 0, circuit_open_until: null, failing_since: null }

/** The cool-down after `failures` in a row (at least the threshold): 1 min, doubling to 1 h. */
export const coolDownMs = (failures: number) =>
  Math.min(longestCoolDownMs, firstCoolDownMs * 2 ** Math.min(32, Math.max(0, failures - circuitThreshold)))

/**
 * Where an endpoint's circuit is at `now`: `closed` (deliveries go), `open` (they wait until
 * `circuit_open_until`) or `half_open` (the cool-down is over: one delivery goes first, as a probe).
 */
export const circuitPosition = (state: CircuitState, now: string): "closed" | "open" | "half_open" => {
  if (state.circuit_open_until === null) return "closed"
  return state.circuit_open_until > now ? "open" : "half_open"
}

/**
 * The circuit while a probe is out at `at`: open for the cool-down that would follow its failure,
 * so a probe cut short by a crash is followed by one probe per cool-down, not a burst.
 */
export const probing = (state: CircuitState, at: Date): CircuitState => ({
  consecutive_failures: state.consecutive_failures,
  circuit_open_until: new Date(at.getTime() + coolDownMs(state.consecutive_failures + 1)).toISOString(),
  failing_since: state.failing_since,
})

/**
 * The circuit after a lane's attempts at `at` (`true` for a 200): any 200 closes it, since the
 * receiver answers; else every failure adds to the run, and reaching the threshold opens it for
 * the cool-down of the run's length. A closed circuit's lane that opens it counts as the
 * threshold however many it failed (a full lane to a receiver that just went down would start
 * at the longest cool-down), so each failed probe after it doubles the cool-down. A run's
 * first failures mark `failing_since` with `at`; later ones keep it.
 */
export const circuitAfter = (state: CircuitState, succeeded: ReadonlyArray<boolean>, at: Date): CircuitState => {
  if (succeeded.length === 0) return state
  if (succeeded.some((ok) => ok)) return closedCircuit
  const run = state.consecutive_failures + succeeded.length
  const failing_since = state.failing_since ?? at.toISOString()
  if (run < circuitThreshold) return { consecutive_failures: run, circuit_open_until: null, failing_since }
  const failures = state.circuit_open_until === null ? circuitThreshold : run
  return {
    consecutive_failures: failures,
    circuit_open_until: new Date(at.getTime() + coolDownMs(failures)).toISOString(),
    failing_since,
  }
}

/**
 * How many deliveries a lane of the endpoint takes: the full lane while it answers; after
 * failures, only as many as it takes to open the circuit (at least one), so a receiver that
 * stopped answering costs a few timeouts, not a lane of them.
 */
export const laneSizeFor = (state: CircuitState, fullLane: number) =>
  state.consecutive_failures === 0
    ? fullLane
    : Math.max(1, Math.min(fullLane, circuitThreshold - state.consecutive_failures))
