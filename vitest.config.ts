import { defaultClientConditions, defaultServerConditions } from "vite"
import { defineConfig } from "vitest/config"

/** Our packages export `src/*.ts` under the "source" condition: tests run the sources, never a stale build. */
const sourceFirst = (conditions: ReadonlyArray<string>) => ["source", ...conditions]

export default defineConfig({
  resolve: { conditions: sourceFirst(defaultClientConditions) },
  // Without `module`, a bundlers' condition Node does not know: vitest hands these to Node for the
  // packages it does not transform, and the OpenTelemetry packages' `module` builds are ESM with
  // extensionless imports, which Node cannot load.
  ssr: { resolve: { conditions: sourceFirst(defaultServerConditions.filter((name) => name !== "module")) } },
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "examples/*/src/**/*.test.ts",
      "examples/*/test/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    // Two files at once even on two cores (vitest's default there is one): most long files wait on
    // child processes, Postgres or sockets, and one worker left the suite at 32 min a run.
    maxWorkers: 2,
    // A hang guard, not a speed check: a loaded machine starting service processes needs more than 30 s.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ["default"],
    server: {
      deps: {
        // graphql has no `exports` map: Node resolves graphql-http's `import "graphql"` to its
        // CommonJS build, Vite resolves our sources' to the ES build, and graphql-js refuses
        // schema objects of the other copy. Inlined, graphql-http's import goes through Vite too.
        inline: ["graphql-http"],
      },
    },
  },
})
