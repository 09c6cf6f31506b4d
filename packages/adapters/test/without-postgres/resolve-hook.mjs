// Node looks for pg and graphile-worker (and their subpaths) from the filesystem root, where they
// are not: their imports fail as they would if they were not installed.
export const resolve = (specifier, context, next) =>
  next(specifier, /^(pg|graphile-worker)(\/|$)/.test(specifier) ? { ...context, parentURL: "file:///" } : context)
