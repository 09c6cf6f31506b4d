/*
 * The free names of code examples, with their real types. An example uses them as it would a
 * variable of its reader's program (`engine.companies.create(actor, cid, ...)`); a name not here
 * it declares itself in a first line (`declare const payment: PaymentInstruction`).
 */
import type { Router } from "@koa/router"
import type { KyselyStorage } from "@payments-engine/adapters/kysely"
import type {
  Actor,
  Clock,
  CompanyId,
  Engine,
  EntityId,
  HostedPageClaims,
  JobHandlers,
  PaymentProvider,
  RecipientId,
  Repositories,
  WorkspaceId,
} from "@payments-engine/core"
import type {
  AppContext,
  AppMiddleware,
  AppState,
  BearerTokens,
  Logger,
  RateLimiting,
  RouteDependencies,
  ServiceConfig,
} from "@payments-engine/http-koa"
import type Koa from "koa"

type Db = KyselyStorage["db"]

declare global {
  /** An engine made by `createEngine` or `createServiceEngine`, and the caller a use case acts for. */
  const engine: Engine
  const actor: Actor
  /** Ids of a workspace, a company (`cid` for short), an entity of it (`eid`) and a recipient. */
  const workspaceId: WorkspaceId
  const companyId: CompanyId
  const cid: CompanyId
  const entityId: EntityId
  const eid: EntityId
  const rid: RecipientId
  /** A storage opened by the adapters (`openSqliteStorage`, `openPostgresStorage`). */
  const storage: KyselyStorage
  /** The repositories of one storage transaction (`storage.transaction((tx) => ...)`). */
  const tx: Repositories
  /** The Kysely instance of the adapters' storage, and a transaction on it. */
  const db: Db
  const trx: Parameters<Parameters<ReturnType<Db["transaction"]>["execute"]>[0]>[0]
  const clock: Clock
  const provider: PaymentProvider
  /** What the job runner is handed: a handler per job kind. */
  const handlers: JobHandlers
  /** The Koa app of the HTTP binding, a router on it, a request's context and what follows it. */
  const app: Koa<AppState>
  const router: Router<AppState>
  const ctx: AppContext
  const next: Koa.Next
  /** Middleware of a route, outermost first, as `registerRoutes` chains them. */
  const chain: AppMiddleware[]
  const dependencies: RouteDependencies
  const limiting: RateLimiting
  const logger: Logger
  const config: ServiceConfig
  const tokens: BearerTokens
  /** A hosted page's verified token. */
  const claims: HostedPageClaims
  /** The server secret, and bytes of an upload. */
  const secret: string
  const bytes: Uint8Array
}
