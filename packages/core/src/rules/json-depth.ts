/**
 * The deepest nesting of arrays and objects a request body may have: `{}` is one level,
 * `{"a":[]}` two. No request of the API needs more than a handful; 64 leaves room for clients'
 * own metadata. The HTTP binding judges it on the text before parsing; the engine checks it again
 * for embedders who hand it bodies directly.
 */
export const maxJsonDepth = 64
