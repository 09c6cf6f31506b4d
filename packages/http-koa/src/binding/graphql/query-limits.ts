import {
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type ParseOptions,
  parse,
  type SelectionSetNode,
  type Source,
  type ValidationRule,
  validate,
} from "graphql"

/**
 * The bounds of a GraphQL request: hostile input is normal input, so a huge or deeply nested
 * query is refused before it costs anything. The body bound comes first (the JSON body is
 * never read past it), then the parser's token bound (it stops at the first token over), then
 * depth, selections and root fields counted in one pass over the document, fragments expanded
 * once each (memoised, so fragments that spread each other many times cost nothing more),
 * before graphql-js's own validation runs.
 */
export const graphqlLimits = {
  /** Bytes of the JSON body (query, variables and operation name). */
  maxBodyBytes: 16 * 1024,
  /** Lexical tokens of the query (the standard introspection query has about 350). */
  maxTokens: 2000,
  /** Nested selections, fragments expanded (the standard introspection query is 13 deep). */
  maxDepth: 15,
  /** Field selections of one operation, fragments expanded (the standard introspection query has under 300). */
  maxSelections: 500,
  /** Fields (aliases included) at the root of one operation, introspection aside: each may read the database. */
  maxRootFields: 10,
  /** Validation errors reported. */
  maxValidationErrors: 10,
} as const

/**
 * graphql-js's `parse`, stopping at {@link graphqlLimits}`.maxTokens` tokens.
 *
 * @example
 * boundedParse("{ trustedDomainConfig { id } }")
 */
export const boundedParse = (source: string | Source, options?: ParseOptions): DocumentNode =>
  parse(source, { ...options, maxTokens: graphqlLimits.maxTokens })

interface Cost {
  readonly depth: number
  readonly selections: number
  readonly rootFields: number
}

const noCost: Cost = { depth: 0, selections: 0, rootFields: 0 }
const unbounded: Cost = { depth: Number.POSITIVE_INFINITY, selections: Number.POSITIVE_INFINITY, rootFields: 0 }

/**
 * Depth, selections and root fields of each operation of `document`, fragments expanded. A
 * fragment cycle counts as unbounded (graphql-js's validation would refuse it too).
 */
const operationCosts = (document: DocumentNode): ReadonlyArray<{ readonly name: string; readonly cost: Cost }> => {
  const fragments = new Map<string, FragmentDefinitionNode>()
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition)
  }
  const memo = new Map<string, Cost>()
  const visiting = new Set<string>()
  const setCost = (set: SelectionSetNode): Cost => {
    let depth = 0
    let selections = 0
    let rootFields = 0
    for (const selection of set.selections) {
      let cost: Cost
      if (selection.kind === Kind.FIELD) {
        const inner = selection.selectionSet === undefined ? noCost : setCost(selection.selectionSet)
        cost = {
          depth: inner.depth + 1,
          selections: inner.selections + 1,
          rootFields: selection.name.value.startsWith("__") ? 0 : 1,
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        cost = setCost(selection.selectionSet)
      } else {
        cost = fragmentCost(selection.name.value)
      }
      depth = Math.max(depth, cost.depth)
      selections += cost.selections
      rootFields += cost.rootFields
    }
    return { depth, selections, rootFields }
  }
  const fragmentCost = (name: string): Cost => {
    const known = memo.get(name)
    if (known !== undefined) return known
    const fragment = fragments.get(name)
    if (fragment === undefined) return noCost
    if (visiting.has(name)) return unbounded
    visiting.add(name)
    const cost = setCost(fragment.selectionSet)
    visiting.delete(name)
    memo.set(name, cost)
    return cost
  }
  return document.definitions.flatMap((definition) =>
    definition.kind === Kind.OPERATION_DEFINITION
      ? [{ name: definition.name?.value ?? "anonymous", cost: setCost(definition.selectionSet) }]
      : [],
  )
}

/**
 * What makes `document` too costly to validate and run, as GraphQL errors; empty when it is
 * within {@link graphqlLimits}.
 *
 * @example
 * queryCostProblems(parse("{ a: trustedDomainConfig { id } b: trustedDomainConfig { id } }")) // []
 */
export const queryCostProblems = (document: DocumentNode): ReadonlyArray<GraphQLError> => {
  const problems: Array<GraphQLError> = []
  const limits = graphqlLimits
  for (const { name, cost } of operationCosts(document)) {
    if (cost.depth > limits.maxDepth) {
      problems.push(new GraphQLError(`Operation ${name} is nested deeper than ${limits.maxDepth} levels`))
    } else if (cost.selections > limits.maxSelections) {
      problems.push(new GraphQLError(`Operation ${name} selects more than ${limits.maxSelections} fields`))
    } else if (cost.rootFields > limits.maxRootFields) {
      problems.push(new GraphQLError(`Operation ${name} has more than ${limits.maxRootFields} root fields`))
    }
  }
  return problems
}

/**
 * graphql-js's `validate`, after the cost check of {@link queryCostProblems} (a costly query is
 * refused before the specified rules walk it), reporting at most
 * {@link graphqlLimits}`.maxValidationErrors` errors.
 *
 * @example
 * declare const schema: import("graphql").GraphQLSchema
 * const handler = createHandler({ schema, parse: boundedParse, validate: boundedValidate })
 */
export const boundedValidate = (
  schema: GraphQLSchema,
  document: DocumentNode,
  rules?: ReadonlyArray<ValidationRule>,
): ReadonlyArray<GraphQLError> => {
  const problems = queryCostProblems(document)
  if (problems.length > 0) return problems
  return validate(schema, document, rules, { maxErrors: graphqlLimits.maxValidationErrors })
}
