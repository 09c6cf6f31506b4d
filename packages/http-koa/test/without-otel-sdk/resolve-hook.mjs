// Every @opentelemetry package but the API is looked for from the filesystem root, where it is
// not: importing one fails as it would if it were not installed.
export const resolve = (specifier, context, next) =>
  next(specifier, /^@opentelemetry\/(?!api(\/|$))/.test(specifier) ? { ...context, parentURL: "file:///" } : context)
