import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import type { Db } from '../db/connection.ts';
import { createEmailSender, type EmailSender } from '../activities/notify/email.ts';
import { createFacialEngine } from '../activities/facial/facial-engine-client.ts';
import { ApiTokenVerifier } from './auth/api-token-verifier.ts';
import { apiTokenRoutes } from './auth/api-tokens.routes.ts';
import { auditRoutes } from './audits/audits.routes.ts';
import { authenticate } from './auth/authenticate.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { credentialScope } from './auth/credential-scope.ts';
import { oauthRoutes } from './auth/oauth.routes.ts';
import { recoveryRoutes } from './auth/recovery.routes.ts';
import { RevokedLogins } from './auth/revoked-logins.ts';
import { mountDocs } from './docs/docs.routes.ts';
import { healthRoutes } from './health/health.routes.ts';
import { INGESTION_BODY_LIMIT_BYTES, isIngestionPath } from './ingestion/body-limit.ts';
import { ingestionRoutes } from './ingestion/ingestion.routes.ts';
import { cors } from './http/cors.ts';
import { errorHandler } from './http/error-handler.ts';
import { ApiError } from './http/errors.ts';
import { buildOpenApiDocument } from './http/openapi.ts';
import { organizationPlans } from './http/organization-plans.ts';
import { rateLimit } from './http/rate-limit.ts';
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from './http/rate-limit-store.ts';
import { requestContext } from './http/request-context.ts';
import { mountRoutes, type RouteDefinition } from './http/route.ts';
import type { RequestState } from './http/state.ts';
import { jobRoutes } from './jobs/jobs.routes.ts';
import { reportRoutes } from './reports/reports.routes.ts';
import { sessionRoutes } from './sessions/sessions.routes.ts';

/** JSON bodies above this are refused with 413 (DESIGN.md, "Limits not shown"). */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
const SHUTDOWN_GRACE_MS = 10_000;

export interface AppDependencies {
  readonly config: Config;
  readonly db: Db;
  readonly temporal: Client;
  readonly logger: Logger;
  readonly rateLimitStore?: RateLimitStore;
  readonly now?: () => Date;
  readonly email?: EmailSender;
}

export interface Api {
  readonly app: Koa<RequestState>;
  readonly routes: readonly RouteDefinition[];
  listen(port?: number, host?: string): Promise<string>;
  stop(): Promise<void>;
}

/** The HTTP API as a value: build it, listen, stop. Nothing starts until `listen`. */
export function createApi(deps: AppDependencies): Api {
  const { config, db, temporal, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const store =
    deps.rateLimitStore ??
    (config.redisUrl ? new RedisRateLimitStore(config.redisUrl) : new MemoryRateLimitStore());
  const plans = organizationPlans(db);
  const email = deps.email ?? createEmailSender(config.email);
  const apiTokens = new ApiTokenVerifier(db, now);
  const revokedLogins = new RevokedLogins(db, now);
  const auth = { db, config, now, email, apiTokens, revokedLogins };

  const routes: RouteDefinition[] = [
    ...healthRoutes({ db, temporal }),
    ...authRoutes(auth),
    ...recoveryRoutes(auth),
    ...oauthRoutes(auth),
    ...apiTokenRoutes(auth),
    ...jobRoutes({ db, temporal, taskQueue: config.temporal.taskQueue, now }),
    ...sessionRoutes({ db, temporal, taskQueue: config.temporal.taskQueue, now }),
    ...reportRoutes({ db }),
    ...auditRoutes({
      db,
      temporal,
      taskQueue: config.audits.taskQueue,
      allowPrivateUrls: config.audits.allowPrivateUrls,
      now,
    }),
    ...ingestionRoutes({ db, facialEngine: createFacialEngine(config.facialEngine) }),
  ];
  const document = buildOpenApiDocument(routes, {
    title: 'Usability and accessibility testing service',
    version: '0.1.0',
    serverUrl: config.http.baseUrl,
  });

  const router = new Router<RequestState>();
  mountRoutes(router, routes);
  mountDocs(router, () => document);

  const parseJson = (jsonLimit: number) =>
    koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit, jsonStrict: false });
  const jsonBody = parseJson(JSON_BODY_LIMIT_BYTES);
  const ingestionBody = parseJson(INGESTION_BODY_LIMIT_BYTES);

  const app = new Koa<RequestState>({ proxy: false });
  app.silent = true;
  let stopping = false;
  app
    .use(async (ctx, next) => {
      await next();
      // A request that finishes during shutdown closes its connection, so `stop` need not wait
      // for an idle keep-alive socket to time out.
      if (stopping) ctx.set('Connection', 'close');
    })
    .use(requestContext(logger))
    .use(errorHandler())
    .use(cors({ baseUrl: config.http.baseUrl, allowLocalhost: config.env === 'development' }))
    .use(authenticate({ jwtSecret: config.auth.jwtSecret, db, apiTokens, revokedLogins, now }))
    .use(rateLimit({ store, planOf: (principal) => plans.planOf(principal), now: () => now().getTime() }))
    .use(credentialScope())
    .use(async (ctx, next) => {
      await (isIngestionPath(ctx.path) ? ingestionBody : jsonBody)(ctx, next);
    })
    .use(async (ctx, next) => {
      await next();
      // Decided after the router's own 405 check (a throwing last link would pre-empt it, and its
      // throwing mode drops the Allow header): whatever nothing answered becomes an envelope error.
      if (ctx.body != null) return;
      const allow = ctx.response.get('Allow');
      // 501 is the router's answer to a method it has never heard of (PROPFIND): on a known path that
      // is as much "not allowed" as DELETE, and on an unknown path the route is what is missing.
      if ((ctx.status === 405 || ctx.status === 501) && allow)
        throw new ApiError('method_not_allowed', 'Method not allowed', { Allow: allow });
      if (ctx.status === 404 || ctx.status === 501)
        throw new ApiError('not_found', `No route for ${ctx.method} ${ctx.path}`);
    })
    .use(router.routes())
    .use(router.allowedMethods());

  let server: Server | undefined;
  return {
    app,
    routes,
    async listen(port = config.http.port, host = config.http.host) {
      server = app.listen(port, host);
      await once(server, 'listening');
      const { port: bound } = server.address() as AddressInfo;
      return `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
    },
    async stop() {
      stopping = true;
      if (server) {
        const closing = new Promise<void>((resolve) => server!.close(() => resolve()));
        server.closeIdleConnections();
        const force = setTimeout(() => server?.closeAllConnections(), SHUTDOWN_GRACE_MS);
        await closing;
        clearTimeout(force);
      }
      await store.close();
      email.close();
    },
  };
}
