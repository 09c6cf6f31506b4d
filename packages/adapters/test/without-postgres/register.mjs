// `node --import <this file>`: the process runs as if pg and graphile-worker were not installed
// (optional peer dependencies). The repository has them for its own tests; the adapters' and the
// http-koa tests "without-postgres-packages" use this to check what an embedder on SQLite gets.
import { register } from "node:module"

register("./resolve-hook.mjs", import.meta.url)
