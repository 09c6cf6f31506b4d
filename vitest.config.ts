import { defaultClientConditions, defaultServerConditions } from "vite"
import { defineConfig } from "vitest/config"

/** Our packages export `src/*.ts` under the "source" condition: tests run the sources, never a stale build. */
const sourceFirst = (conditions: ReadonlyArray<string>) => ["source", ...conditions]

export default defineConfig({
  resolve: { conditions: sourceFirst(defaultClientConditions) },
  ssr: { resolve: { conditions: sourceFirst(defaultServerConditions) } },
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "examples/*/src/**/*.test.ts",
      "examples/*/test/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    testTimeout: 30_000,
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
