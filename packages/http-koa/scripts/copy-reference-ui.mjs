// Copies Swagger UI's bundle, style sheet and licences into the build, so the published package
// serves the API reference without depending on swagger-ui-dist, whose `@scarf/scarf` dependency
// would report every install of ours from a postinstall script (docs/decisions.md, issue 25).
import { copyFileSync, mkdirSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

const from = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"))
const to = new URL("../dist/binding/api-reference/swagger-ui/", import.meta.url)
mkdirSync(to, { recursive: true })
for (const file of [
  "swagger-ui-bundle.js",
  "swagger-ui.css",
  "LICENSE",
  "NOTICE",
  "swagger-ui-bundle.js.LICENSE.txt",
]) {
  copyFileSync(join(from, file), new URL(file, to))
}
