/**
 * Counts what the engine sends its database, at the driver, in the bench's own process, without
 * changing the packages: every `pg.Client#query` (one round trip, extended protocol included; a
 * BEGIN or COMMIT is one too) and every better-sqlite3 statement run (`run`, `get`, `all`,
 * `iterate`, and `Database#exec`; SQLite has no round trip, so these are statements).
 *
 * A job's own statements are told from the rest by an AsyncLocalStorage scope opened around the
 * job's handler (`jobScoped`); what the runner does around a job (the claim, the completion) is
 * counted as the difference between running one empty job and running none.
 */
import { AsyncLocalStorage } from "node:async_hooks"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { createHttpWebhookTransport } from "@payments-engine/adapters"
import { payInProcess, setUpPayer } from "@payments-engine/adapters/testing"
import type { Storage } from "@payments-engine/core"
import { JobId } from "@payments-engine/core"
import { webhookEventNames } from "@payments-engine/core/effect"
import Database from "better-sqlite3"
import pg from "pg"
import { benchEngine, noopKind, noopRunner } from "./bench-engine.ts"
import { statementPrototype } from "./driver-time.ts"

const jobScope = new AsyncLocalStorage<string>()

/** The count under way: of every statement, or of those run inside jobs of `kind` (and of those jobs). */
let counting: { statements: number; jobs: number; readonly kind: string | undefined } | undefined

const count = () => {
  if (counting !== undefined && (counting.kind === undefined || jobScope.getStore() === counting.kind))
    counting.statements += 1
}

/** The driver methods counted, each as [object, method name]. */
const counted: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
  [pg.Client.prototype as unknown as Record<string, unknown>, "query"],
  ...["run", "get", "all", "iterate"].map((method) => [statementPrototype, method] as const),
  [Database.prototype as unknown as Record<string, unknown>, "exec"],
]

/** Wraps the counted driver methods; returns what puts them back, so no measured slice pays for the count. */
const wrapDrivers = (): (() => void) => {
  const originals = counted.map(([owner, method]) => owner[method] as (...args: Array<unknown>) => unknown)
  counted.forEach(([owner, method], i) => {
    const original = originals[i]!
    owner[method] = function (this: unknown, ...args: Array<unknown>) {
      count()
      return original.apply(this, args)
    }
  })
  return () => {
    counted.forEach(([owner, method], i) => {
      owner[method] = originals[i]
    })
  }
}

/** Statements (SQLite) or round trips (Postgres) sent while `work` runs. */
export const countStatements = async (work: () => Promise<unknown>): Promise<number> =>
  (await countIn(work, undefined)).statements

/** What `work` sent, or only inside jobs of `kind`, and how many of those jobs ran. */
const countIn = async (work: () => Promise<unknown>, kind: string | undefined) => {
  const unwrap = wrapDrivers()
  counting = { statements: 0, jobs: 0, kind }
  try {
    await work()
    return { statements: counting.statements, jobs: counting.jobs }
  } finally {
    counting = undefined
    unwrap()
  }
}

/** Statements an operation, over `times` of them one after another. */
export const statementsEach = async (times: number, once: (i: number) => Promise<unknown>): Promise<number> =>
  (await countStatements(async () => {
    for (let i = 0; i < times; i++) await once(i)
  })) / times

/** `storage` whose job runners run each job inside a scope named by its kind, for {@link countStatements}. */
const jobScoped = (storage: Storage): Storage =>
  new Proxy(storage, {
    get: (target, key, receiver) =>
      key === "createJobRunner"
        ? (((handlers, options) =>
            target.createJobRunner(
              {
                kinds: handlers.kinds,
                run: (kind, payload, run) => {
                  if (counting?.kind === kind) counting.jobs += 1
                  return jobScope.run(kind, () => handlers.run(kind, payload, run))
                },
              },
              options,
            )) satisfies Storage["createJobRunner"])
        : Reflect.get(target, key, receiver),
  })

/** What executing one payment sends, on average: its `execute_payment` job's own statements, and the runner's around a job. */
export interface ExecutionTrips {
  /** The job's, when the company has no webhook endpoint. */
  readonly jobAlone: number
  /** The job's, with an endpoint on every payment event: each event fans out to a delivery and its job. */
  readonly jobWithEndpoint: number
  /** Taking the job and marking it done. */
  readonly runner: number
}

/** Payments executed in each case: the figure is their mean, so one first run (a new connection) does not set it. */
const executions = 5

/**
 * Executes payments through `engine.jobs.runDue()` on `storage` (fresh, or at least with no job
 * due), a few at a time: each from a quote + payment made in-process, to a provider that answers
 * at once; first with no webhook endpoint, then with one on every payment event.
 */
export const executionTrips = async (storage: Storage): Promise<ExecutionTrips> => {
  const receiver = createServer((req, res) => {
    req.resume()
    req.on("end", () => res.writeHead(200).end())
  })
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
    const engine = benchEngine(jobScoped(storage), {
      webhookTransport: createHttpWebhookTransport({ allowLoopback: true }),
    })
    const payer = await setUpPayer(engine, "bench-trips")
    await engine.jobs.runDue()
    let paid = 0
    const executeSome = async () => {
      let counted = { statements: 0, jobs: 0 }
      for (let i = 0; i < executions; i++) {
        await payInProcess(engine, payer, paid++, "trips")
        const one = await countIn(() => engine.jobs.runDue(), "execute_payment")
        counted = { statements: counted.statements + one.statements, jobs: counted.jobs + one.jobs }
      }
      return counted.statements / counted.jobs
    }
    const jobAlone = await executeSome()
    await engine.webhookEndpoints.create(payer.actor, payer.companyId, {
      url,
      event_names: webhookEventNames.filter((name) => name.startsWith("PaymentEvents::")),
    })
    const jobWithEndpoint = await executeSome()
    await engine.jobs.stop()
    return { jobAlone, jobWithEndpoint, runner: await runnerTrips(storage) }
  } finally {
    await new Promise((resolve) => receiver.close(resolve))
  }
}

/**
 * What a runner sends to take one job and mark it done: `runDue` with one empty job due, less
 * `runDue` with none; the median of a few, because graphile-worker's runner writes its heartbeat
 * without waiting for it, into one count or the next.
 */
const runnerTrips = async (storage: Storage): Promise<number> => {
  const runner = noopRunner(storage)
  const differences: Array<number> = []
  for (let i = 0; i < executions; i++) {
    const idle = await countStatements(() => runner.runDue())
    const now = new Date().toISOString()
    await storage.transaction(async (tx) => {
      await tx.jobs.enqueue({
        id: JobId.make(`job_trips_${i}`),
        kind: noopKind,
        payload: "{}",
        run_at: now,
        key: null,
        max_attempts: 1,
        created_at: now,
        workspace_id: null,
      })
    })
    differences.push((await countStatements(() => runner.runDue())) - idle)
  }
  await runner.stop()
  return differences.sort((a, b) => a - b)[Math.floor(differences.length / 2)]!
}
