/**
 * The service as `npm start` runs it, with a payment provider that keeps its own books in a file
 * every process shares (`PROVIDER_BOOK`), as a real provider outlives our processes: a payment id
 * already executed is answered from the book, never executed again, and `findPayment` answers
 * from it too (a payment only submitted, never executed, is unknown). With `HANG_ON_SUBMISSION=n`
 * the n-th submission of this process never answers, so a test can kill the process mid-call;
 * with `PROVIDER_DELAY_MS=ms` every submission takes that long, as a slow provider's would.
 * SIGTERM and SIGINT shut it down as they shut down `main.ts`.
 */
import { appendFileSync, readFileSync } from "node:fs"
import { createSandboxPaymentProvider } from "@payments-engine/adapters"
import type { PaymentProvider } from "@payments-engine/core"
import { createLogger } from "../../src/binding/logger.ts"
import { loadConfig } from "../../src/service/config.ts"
import { startService } from "../../src/service/server.ts"
import { exitOnSignals } from "../../src/service/signals.ts"

const book = process.env.PROVIDER_BOOK ?? ""
const hangOn = Number(process.env.HANG_ON_SUBMISSION ?? "0")
const delayMs = Number(process.env.PROVIDER_DELAY_MS ?? "0")
const sandbox = createSandboxPaymentProvider()
let submissions = 0

const executed = (paymentId: string) =>
  readFileSync(book, { encoding: "utf8", flag: "a+" }).split("\n").includes(`executed ${paymentId}`)

const outcomeOf = (paymentId: string) => ({ status: "completed", providerPaymentId: `prov_${paymentId}` }) as const

const provider: PaymentProvider = {
  ...sandbox,
  submitPayment: async (request) => {
    submissions += 1
    appendFileSync(book, `submitted ${request.paymentId} by ${process.pid} at ${Date.now()}\n`)
    // A call that never answers holds the process as an open connection to a provider would.
    if (submissions === hangOn) return new Promise(() => setInterval(() => {}, 60_000))
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
    if (!executed(request.paymentId)) appendFileSync(book, `executed ${request.paymentId}\n`)
    return outcomeOf(request.paymentId)
  },
  // Answered from the book too: a payment another process executed is known here.
  findPayment: async (paymentId) => (executed(paymentId) ? outcomeOf(paymentId) : undefined),
}

const config = loadConfig(process.env)
const logger = createLogger({ level: config.logLevel })
const service = await startService(config, { logger, paymentProvider: provider })
exitOnSignals(service, logger)
logger.info({ url: service.url, port: service.port }, "listening")
