import type Router from '@koa/router';
import type { Context } from 'koa';
import type { z, ZodType } from 'zod';
import type { UserRole } from '../../lib/domain.ts';
import type { Principal } from '../../commands/principal.ts';
import { success, type PageMetadata } from './envelope.ts';
import { ApiError, forbidden, malformed, unauthenticated, type ErrorStatus } from '../../lib/errors.ts';
import { readRawBody } from './raw-body.ts';
import type { RequestState } from './state.ts';
import { validateBody, validateQuery } from '../../lib/validation/validate.ts';

/** Webhook bodies, like other JSON (DESIGN.md, "Limits not shown"). */
const RAW_BODY_LIMIT_BYTES = 1024 * 1024;

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type AuthRequirement = 'public' | 'user';

/** The OpenAPI security schemes of the spec's other header methods (api/auth/service-credentials.ts). */
export type ServiceCredentialScheme = 'webhookSecret' | 'cronSecret' | 'serviceToken';

/**
 * A credential that is not a user's: checked before anything else of the route (so an unknown path
 * parameter is not revealed to a caller without it), and documented as the route's security.
 */
export interface ServiceCredential {
  readonly scheme: ServiceCredentialScheme;
  /** Throws 401 for an absent or wrong credential, 503 while the endpoint's secret is not configured. */
  readonly verify: (ctx: Context) => void;
}

export interface RouteInput<
  A extends AuthRequirement,
  B extends ZodType,
  Q extends ZodType,
  P extends ZodType,
> {
  readonly body: z.output<B>;
  readonly query: z.output<Q>;
  readonly params: z.output<P>;
  readonly principal: A extends 'user' ? Principal : Principal | null;
  readonly ctx: Context;
  /** The unparsed body, on routes with `rawBody` (otherwise undefined). */
  readonly rawBody: Buffer | undefined;
}

/** An answer in the envelope (`data`, with `metadata` on a page of a list). */
export interface EnvelopeResult {
  readonly data: unknown;
  readonly metadata?: PageMetadata;
  readonly status?: number;
}

/** An answer outside the envelope, in one of the route's `documents` media types. */
export interface DocumentResult {
  readonly document: {
    readonly type: string;
    readonly body: string;
    /** Where this document can be read again (Content-Location). */
    readonly location?: string;
  };
  readonly status?: number;
}

export type RouteResult = EnvelopeResult | DocumentResult;

/** One endpoint: how it is reached, what it accepts and answers (also its documentation), and its handler. */
export interface RouteDefinition<
  A extends AuthRequirement = AuthRequirement,
  B extends ZodType = ZodType,
  Q extends ZodType = ZodType,
  P extends ZodType = ZodType,
> {
  readonly method: HttpMethod;
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly auth: A;
  readonly roles?: readonly UserRole[];
  /** On public routes called by services, not users: the credential they must present. */
  readonly credential?: ServiceCredential;
  readonly body?: B;
  readonly query?: Q;
  readonly params?: P;
  /** Request headers worth documenting (for example Idempotency-Key). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Schema of the envelope's `data` on success. */
  readonly response: ZodType;
  /**
   * The media types the route may answer in instead of the envelope (a result's `document`), each
   * with what it holds, for the OpenAPI document.
   */
  readonly documents?: Readonly<Record<string, string>>;
  readonly status?: number;
  readonly paginated?: boolean;
  /** The name used in the 404 for a path parameter that cannot identify anything. */
  readonly resource?: string;
  /**
   * Error statuses this route answers beyond those its shape implies (see `documentedErrors` in
   * documented-errors.ts), for example 409 for a state precondition or a 404 for an id in the body
   * (503 is every route's already; a route that raises its own may still list it, as a reader's note).
   */
  readonly errors?: readonly ErrorStatus[];
  /**
   * Webhooks: the body is handed to the handler unparsed (`rawBody`, at most 1 MB) so it can check
   * a signature over the exact bytes before reading it; `body` then only documents it. No body
   * parser runs on /api/webhooks/* (api/app.ts).
   */
  readonly rawBody?: boolean;
  readonly handler: (input: RouteInput<A, B, Q, P>) => Promise<RouteResult>;
}

export function defineRoute<
  A extends AuthRequirement,
  B extends ZodType = ZodType<undefined>,
  Q extends ZodType = ZodType<undefined>,
  P extends ZodType = ZodType<undefined>,
>(definition: RouteDefinition<A, B, Q, P>): RouteDefinition {
  return definition;
}

/** Registers routes on the router, each as the same chain: auth -> roles -> validate -> handler -> envelope. */
export function mountRoutes(router: Router<RequestState>, routes: readonly RouteDefinition[]): void {
  for (const route of routes) {
    router.register(route.path, [route.method], async (ctx) => {
      route.credential?.verify(ctx);
      const principal = authorize(route, ctx.state);
      const params = route.params ? parseParams(route, ctx.params) : undefined;
      const query = route.query ? validateQuery(route.query, ctx.query) : undefined;
      const rawBody = route.rawBody ? await readRawBody(ctx, RAW_BODY_LIMIT_BYTES) : undefined;
      const body = route.body && !route.rawBody ? validateBody(route.body, jsonBody(ctx)) : undefined;
      const result = await route.handler({ body, query, params, principal, ctx, rawBody });
      ctx.status = result.status ?? route.status ?? 200;
      if ('document' in result) {
        // Said whatever the type: koa adds a charset only to the types it knows as text.
        ctx.set('Content-Type', `${result.document.type}; charset=utf-8`);
        if (result.document.location) ctx.set('Content-Location', result.document.location);
        ctx.body = result.document.body;
      } else {
        ctx.body = success(result.data, result.metadata ?? null);
      }
    });
  }
}

function authorize(route: RouteDefinition, state: RequestState): Principal | null {
  if (route.auth === 'public') return state.principal;
  if (!state.principal) throw unauthenticated(state.authFailure ?? 'Authentication required');
  if (route.roles && !route.roles.includes(state.principal.claims.role)) {
    throw forbidden(`This endpoint requires the role ${route.roles.join(' or ')}`);
  }
  return state.principal;
}

function parseParams(route: RouteDefinition, raw: unknown): unknown {
  const parsed = route.params!.safeParse(raw);
  if (!parsed.success) throw new ApiError('not_found', `${route.resource ?? 'Resource'} not found`);
  return parsed.data;
}

function jsonBody(ctx: Context): unknown {
  const type = ctx.request.type;
  // A body without a Content-Type would otherwise be skipped by the parser and read as `{}`.
  const carriesBody = (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
  if ((type && !ctx.is('application/json')) || (!type && carriesBody))
    throw malformed('Request body must be JSON (Content-Type: application/json)');
  return (ctx.request as { body?: unknown }).body ?? {};
}
