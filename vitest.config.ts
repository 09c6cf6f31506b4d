import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "examples/*/src/**/*.test.ts",
      "examples/*/test/**/*.test.ts",
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
