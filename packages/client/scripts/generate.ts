import { mkdir, writeFile } from "node:fs/promises"
import { generatedPath, generatedTypes } from "./generated-types.ts"

await mkdir(new URL(".", generatedPath), { recursive: true })
await writeFile(generatedPath, await generatedTypes())
