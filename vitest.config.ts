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
  },
})
