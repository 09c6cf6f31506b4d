import {
  type Actor,
  type Engine,
  type FieldError,
  isDomainError,
  type TrustedDomainConfig,
  type TrustedDomainsBody,
} from "@payments-engine/core"
import {
  GraphQLError,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
} from "graphql"

/** What every resolver receives: the engine and the caller of the bearer token. */
// A type alias, not an interface: graphql-http asks for a record type.
export type GraphqlContext = {
  readonly engine: Engine
  readonly actor: Actor
}

/** One field's problems, as the spec's `errors { field messages }` lists them. */
export interface UserError {
  readonly field: string
  readonly messages: ReadonlyArray<string>
}

/**
 * Domain errors as `errors { field messages }`: the messages of each field together, fields in
 * the order they first appear.
 *
 * @example
 * userErrorsOf([{ field: "domains.0", message: "..." }]) // [{ field: "domains.0", messages: ["..."] }]
 */
export const userErrorsOf = (errors: ReadonlyArray<FieldError>): ReadonlyArray<UserError> => {
  const byField = new Map<string, Array<string>>()
  for (const { field, message } of errors) {
    const messages = byField.get(field) ?? []
    messages.push(message)
    byField.set(field, messages)
  }
  return [...byField].map(([field, messages]) => ({ field, messages }))
}

/**
 * A use case's refusal that is not about the input (a read-only key, ...) as a GraphQL error
 * whose `extensions.code` is the domain error's kind; a defect is rethrown (graphql-js then
 * answers a generic error without details).
 */
const graphqlErrorOf = (error: unknown): GraphQLError => {
  if (!isDomainError(error)) throw error
  return new GraphQLError(error.errors.map((e) => e.message).join("; "), {
    extensions: { code: error.kind, errors: error.errors },
  })
}

const nonNullList = <T extends GraphQLObjectType | typeof GraphQLString>(type: T) =>
  new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type)))

const TrustedDomainConfigType = new GraphQLObjectType<TrustedDomainConfig, GraphqlContext>({
  name: "TrustedDomainConfig",
  description: "The domains a hosted page's return_url may point at: exact hosts, or *.example.com for its subdomains",
  fields: {
    id: { type: new GraphQLNonNull(GraphQLID) },
    domains: { type: nonNullList(GraphQLString), description: "Normalised: lowercase, punycode, no trailing dot" },
  },
})

const UserErrorType = new GraphQLObjectType<UserError, GraphqlContext>({
  name: "UserError",
  description: "What is wrong with one field of the input (`domains.2` is the third domain)",
  fields: {
    field: { type: new GraphQLNonNull(GraphQLString) },
    messages: { type: nonNullList(GraphQLString) },
  },
})

interface UpsertPayload {
  readonly trustedDomainConfig: TrustedDomainConfig | null
  readonly errors: ReadonlyArray<UserError>
}

const UpsertPayloadType = new GraphQLObjectType<UpsertPayload, GraphqlContext>({
  name: "UpsertTrustedDomainConfigPayload",
  fields: {
    trustedDomainConfig: {
      type: TrustedDomainConfigType,
      description: "The configuration as stored; null when refused",
    },
    errors: { type: nonNullList(UserErrorType), description: "Empty when the configuration was stored" },
  },
})

const UpsertInputType = new GraphQLInputObjectType({
  name: "UpsertTrustedDomainConfigInput",
  fields: {
    domains: {
      type: nonNullList(GraphQLString),
      description: "The whole list (it replaces the stored one): host names, or *. + host name; at most 50",
    },
  },
})

/**
 * The GraphQL schema of `POST /graphql` (DECISIONS "Trusted domains"): the query
 * `trustedDomainConfig` and the mutation `upsertTrustedDomainConfig(input: { domains })`. The
 * resolvers only call the engine's `trustedDomains` service and render its answer: invalid
 * domains come back in `errors`, any other refusal as a GraphQL error.
 *
 * @example
 * const result = await graphql({ schema: graphqlSchema, source: "{ trustedDomainConfig { id } }", contextValue: { engine, actor } })
 */
export const graphqlSchema = new GraphQLSchema({
  query: new GraphQLObjectType<unknown, GraphqlContext>({
    name: "Query",
    fields: {
      trustedDomainConfig: {
        type: TrustedDomainConfigType,
        description: "The workspace's trusted-domain configuration, or null when it has none",
        resolve: async (_root, _args, { engine, actor }) => {
          try {
            return await engine.trustedDomains.get(actor)
          } catch (error) {
            throw graphqlErrorOf(error)
          }
        },
      },
    },
  }),
  mutation: new GraphQLObjectType<unknown, GraphqlContext>({
    name: "Mutation",
    fields: {
      upsertTrustedDomainConfig: {
        type: new GraphQLNonNull(UpsertPayloadType),
        description: "Replaces the workspace's trusted domains (a key with write scope)",
        args: { input: { type: new GraphQLNonNull(UpsertInputType) } },
        resolve: async (
          _root,
          args: { readonly input: TrustedDomainsBody },
          { engine, actor },
        ): Promise<UpsertPayload> => {
          try {
            return { trustedDomainConfig: await engine.trustedDomains.upsert(actor, args.input), errors: [] }
          } catch (error) {
            if (isDomainError(error) && error._tag === "Invalid") {
              return { trustedDomainConfig: null, errors: userErrorsOf(error.errors) }
            }
            throw graphqlErrorOf(error)
          }
        },
      },
    },
  }),
})
