/**
 * The route template as the OpenAPI document writes it (`/api/v1/companies/{id}`), from the one
 * koa-router sets on the context as it routes (`:id`); `unmatched` when no route matched, so a
 * stranger probing paths names nothing new. Remembered, as there are only so many routes.
 */
const templates = new Map<string, string>()
export const routeTemplateOf = (ctx: object): string => {
  const route = (ctx as { readonly _matchedRoute?: string | RegExp })._matchedRoute
  if (typeof route !== "string") return "unmatched"
  let template = templates.get(route)
  if (template === undefined) {
    template = route.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}")
    templates.set(route, template)
  }
  return template
}
