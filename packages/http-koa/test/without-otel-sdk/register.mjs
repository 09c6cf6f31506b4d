// `node --import <this file>`: the process cannot load the OpenTelemetry SDK (its trace packages,
// exporters, resources, context manager, core), only the API. The service's tracing test uses it
// to show that a service without traces configured never imports them, and one with them does.
import { register } from "node:module"

register("./resolve-hook.mjs", import.meta.url)
