import { fileURLToPath } from "node:url"
import { defaultClientConditions, defaultServerConditions } from "vite"
import { defineConfig } from "vitest/config"

/** The repository's root: Stryker runs from there (or from its sandbox copy of it). */
const root = fileURLToPath(new URL("../..", import.meta.url))
const sourceFirst = (conditions: ReadonlyArray<string>) => ["source", ...conditions]

/** The mutation run's tests: the contract suite on SQLite, nothing else (see stryker.config.json). */
export default defineConfig({
  root,
  resolve: { conditions: sourceFirst(defaultClientConditions) },
  ssr: { resolve: { conditions: sourceFirst(defaultServerConditions) } },
  test: {
    include: ["packages/adapters/test/mutation/contract-on-sqlite.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
