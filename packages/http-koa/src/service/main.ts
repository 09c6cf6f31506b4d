import { describeServeFailure, serveFromEnvironment } from "./serve.ts"

/**
 * The service's entry point in the repository (`npm start`, i.e.
 * `node --conditions=source --import tsx packages/http-koa/src/service/main.ts`); installed, the same is
 * `payments-engine serve`. See {@link serveFromEnvironment}.
 */
serveFromEnvironment(process.env).then(
  (code) => {
    if (code !== 0) process.exit(code)
  },
  (error: unknown) => {
    process.stderr.write(describeServeFailure(error))
    process.exit(1)
  },
)
