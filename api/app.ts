import { once } from 'node:events';
import { traceRequests } from './http/tracing.ts';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Router from '@koa/router';
import type { Client } from '@temporalio/client';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import type { Db } from '../db/connection.ts';
import { createEmailSender, type EmailSender } from '../clients/email.ts';
import { createApiMetrics, type ApiMetrics } from './http/metrics.ts';
import { createFacialEngine } from '../clients/facial/facial-engine-client.ts';
import { paymentProviderFor } from '../clients/payments/configured.ts';
import { aiRoutes } from './ai/ai.routes.ts';
import { capacityReviewRoutes } from './admin/capacity-reviews.routes.ts';
import { adminQuizRoutes } from './admin/quiz.routes.ts';
import { adminTesterRoutes } from './admin/testers.routes.ts';
import { outreachRoutes } from './outreach/outreach.routes.ts';
import { proposalRoutes } from './outreach/proposals.routes.ts';
import { ApiTokenVerifier } from './auth/api-token-verifier.ts';
import { apiTokenRoutes } from './auth/api-tokens.routes.ts';
import { auditRoutes } from './audits/audits.routes.ts';
import { billingRoutes } from './billing/billing.routes.ts';
import { cronRoutes } from './cron/cron.routes.ts';
import { authenticate } from './auth/authenticate.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { credentialScope } from './auth/credential-scope.ts';
import { messagingLinkRoutes } from './auth/messaging-link.routes.ts';
import { oauthRoutes } from './auth/oauth.routes.ts';
import { recoveryRoutes } from './auth/recovery.routes.ts';
import { RevokedLogins } from './auth/revoked-logins.ts';
import { DOCS_ENDPOINTS, mountDocs } from './docs/docs.routes.ts';
import { errorPageRenderer, wantsPage } from './pages/shared/error-page.tsx';
import { isPagePath, mountOfferPages, mountPages, OFFER_PAGE_ENDPOINTS } from './pages/pages.ts';
import { BADGE_ICON_ENDPOINTS, mountBadgeIcons } from './gamification/badge-icons.ts';
import { healthRoutes } from './health/health.routes.ts';
import { INGESTION_BODY_LIMIT_BYTES, isIngestionPath } from './ingestion/body-limit.ts';
import { ingestionRoutes } from './ingestion/ingestion.routes.ts';
import { internalRoutes } from './internal/queues.routes.ts';
import { cors } from './http/cors.ts';
import { indexedRouter } from './http/indexed-router.ts';
import { setHeadersDirectly } from './http/header-set.ts';
import { constraintColumnsIn } from './http/constraint-violations.ts';
import { errorHandler } from './http/error-handler.ts';
import { buildOpenApiDocument } from './http/openapi.ts';
import { organizationPlans } from './http/organization-plans.ts';
import { credentialLookupGate, rateLimit } from './http/rate-limit.ts';
import { answerClientErrorsInEnvelope } from './http/client-errors.ts';
import { communityRoutes } from './community/community-stats.routes.ts';
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from './http/rate-limit-store.ts';
import { requestContext } from './http/request-context.ts';
import { mountRoutes, type RouteDefinition } from './http/route.ts';
import type { RequestState } from './http/state.ts';
import type { CommandContext } from '../commands/context.ts';
import { unmatchedRoutes } from './http/unmatched.ts';
import { jobRoutes } from './jobs/jobs.routes.ts';
import { aggregateRoutes } from './reports/aggregate.routes.ts';
import { reportRoutes } from './reports/reports.routes.ts';
import { sessionRoutes } from './sessions/sessions.routes.ts';
import { recordingRoutes } from './sessions/recording.routes.ts';
import { testTokenRoutes } from './sessions/test-token.routes.ts';
import { createMessagingSender } from '../clients/messaging.ts';
import { testerRoutes } from './testers/testers.routes.ts';
import { gamificationRoutes } from './gamification/gamification.routes.ts';
import { messagingWebhookRoutes } from './webhooks/messaging.routes.ts';
import { webhookRoutes } from './webhooks/webhooks.routes.ts';
import { webhookEndpointRoutes } from './webhooks/endpoints.routes.ts';

/** JSON bodies above this are refused with 413 (DESIGN.md, "Limits not shown"). */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
/** A page's form: a review with many annotated findings stays far below this. */
const PAGE_FORM_LIMIT_BYTES = 512 * 1024;
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
  /** Every route and the documentation endpoints, as mounted. */
  readonly router: Router<RequestState>;
  /** The web pages (`METHOD path`), mounted on the same router but not in the API document. */
  readonly pages: readonly string[];
  /** Request, rate-limit and ingestion metrics, which api/main.ts serves on METRICS_PORT. */
  readonly metrics: ApiMetrics;
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
  const auth = { db, config, now, email, temporal, apiTokens, revokedLogins };

  const payments = paymentProviderFor(config.payments, config.http.baseUrl);
  // What every command runs over, for the routes and the pages alike.
  const facialEngine = createFacialEngine(config.facialEngine);
  const context: CommandContext = { db, temporal, config, logger, now, email, payments, facialEngine };
  const metrics = createApiMetrics(() => router);
  const routes: RouteDefinition[] = [
    ...healthRoutes({ db, temporal, providers: config.providers }),
    ...authRoutes(auth),
    ...recoveryRoutes(auth),
    ...oauthRoutes(auth),
    ...apiTokenRoutes(auth),
    ...messagingLinkRoutes(auth),
    ...jobRoutes(context),
    ...sessionRoutes(context),
    ...recordingRoutes(context),
    ...testTokenRoutes(context),
    ...reportRoutes(context),
    ...aiRoutes(context),
    ...aggregateRoutes(context),
    ...adminTesterRoutes(context),
    ...adminQuizRoutes(context),
    ...testerRoutes(context),
    ...gamificationRoutes(context),
    ...capacityReviewRoutes(context),
    ...proposalRoutes(context),
    ...outreachRoutes(context),
    ...auditRoutes(context),
    ...ingestionRoutes(context, metrics),
    ...billingRoutes(context),
    ...webhookRoutes(context),
    ...webhookEndpointRoutes(context),
    ...messagingWebhookRoutes({ ...context, messaging: createMessagingSender(config.messaging) }),
    ...communityRoutes({ db, temporal, taskQueue: config.temporal.taskQueue, logger, now }),
    ...cronRoutes({ temporal, secret: config.serviceCredentials.cronSecret, now }),
    ...internalRoutes({ db, tokens: config.serviceCredentials.serviceTokens, now }),
  ];
  const document = buildOpenApiDocument(
    routes,
    {
      title: 'Usability and accessibility testing service',
      version: '0.1.0',
      serverUrl: config.http.baseUrl,
    },
    [...DOCS_ENDPOINTS, ...OFFER_PAGE_ENDPOINTS, ...BADGE_ICON_ENDPOINTS],
  );

  const router = indexedRouter<RequestState>();
  mountRoutes(router, routes);
  mountDocs(router, () => document);
  mountOfferPages(router, context);
  const csrf = { secret: config.auth.jwtSecret, secureCookies: config.env !== 'development' };
  const pages = mountPages(router, {
    auth,
    commands: context,
    csrf,
  });
  mountBadgeIcons(router, { db });

  const parseJson = (jsonLimit: number) =>
    koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit, jsonStrict: false });
  const jsonBody = parseJson(JSON_BODY_LIMIT_BYTES);
  const ingestionBody = parseJson(INGESTION_BODY_LIMIT_BYTES);
  const formBody = koaBody({
    json: false,
    urlencoded: true,
    text: false,
    multipart: false,
    formLimit: PAGE_FORM_LIMIT_BYTES,
  });

  // Behind TRUST_PROXY proxies, the client address is the one the nearest of them saw (the
  // TRUST_PROXY-th entry of X-Forwarded-For from the right); with 0 the header is ignored.
  const app = new Koa<RequestState>({
    proxy: config.http.trustProxy > 0,
    maxIpsCount: config.http.trustProxy,
  });
  app.silent = true;
  setHeadersDirectly(app);
  let stopping = false;
  // Without a trace exporter (OTEL_EXPORTER_OTLP_ENDPOINT) a span would go nowhere: none is made.
  if (config.tracing.otlpEndpoint) app.use(traceRequests((ctx) => metrics.routeOf(ctx)));
  app
    .use(metrics.middleware)
    .use(async (ctx, next) => {
      await next();
      // A request that finishes during shutdown closes its connection, so `stop` need not wait
      // for an idle keep-alive socket to time out.
      if (stopping) ctx.set('Connection', 'close');
    })
    .use(requestContext(logger))
    .use(errorHandler({ wanted: wantsPage, render: errorPageRenderer(csrf) }, constraintColumnsIn(deps.db)))
    .use(
      cors({
        baseUrl: config.http.baseUrl,
        allowLocalhost: config.env === 'development',
        exempt: isPagePath,
      }),
    )
    .use(
      authenticate({
        jwtSecret: config.auth.jwtSecret,
        db,
        apiTokens,
        revokedLogins,
        now,
        beforeLookup: credentialLookupGate({ store, now: () => now().getTime() }),
      }),
    )
    .use(rateLimit({ store, planOf: (principal) => plans.planOf(principal), now: () => now().getTime() }))
    .use(credentialScope())
    .use(async (ctx, next) => {
      // Webhooks read their raw body themselves: a signature covers the exact bytes received.
      if (ctx.path.startsWith('/api/webhooks/')) {
        await next();
        return;
      }
      if (isPagePath(ctx.path)) await formBody(ctx, next);
      else await (isIngestionPath(ctx.path) ? ingestionBody : jsonBody)(ctx, next);
    })
    .use(unmatchedRoutes(routes))
    .use(router.routes())
    .use(router.allowedMethods());

  let server: Server | undefined;
  return {
    app,
    routes,
    router,
    pages,
    metrics,
    async listen(port = config.http.port, host = config.http.host) {
      server = app.listen(port, host);
      answerClientErrorsInEnvelope(server);
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
