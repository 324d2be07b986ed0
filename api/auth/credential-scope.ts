import type { Middleware } from 'koa';
import type { ApiTokenScope } from '../../lib/domain.ts';
import { forbidden, unauthenticated } from '../../lib/errors.ts';
import type { RequestState } from '../http/state.ts';
import { TEST_TOKEN_HEADER } from './test-tokens.ts';

/** The only endpoints a test token opens (spec, Sessions): each names the token's own session. */
const TEST_TOKEN_ROUTES: readonly { method: string; path: RegExp }[] = [
  { method: 'POST', path: /^\/api\/sessions\/([^/]+)\/events$/ },
  { method: 'POST', path: /^\/api\/sessions\/([^/]+)\/snapshots$/ },
  { method: 'POST', path: /^\/api\/sessions\/([^/]+)\/voice$/ },
  { method: 'PATCH', path: /^\/api\/sessions\/([^/]+)$/ },
];

/** Methods each API token scope allows (spec, API bearer tokens). */
export const SCOPE_METHODS: Readonly<Record<ApiTokenScope, readonly string[]>> = {
  read: ['GET', 'HEAD'],
  read_write: ['GET', 'HEAD', 'POST', 'PATCH'],
  admin: ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE'],
};

/** Paths that need the admin scope whatever the method: billing, webhook and token management. */
const ADMIN_SCOPE_PATHS = /^\/api\/(billing|webhook-endpoints|auth\/tokens)(\/|$)/;

/** The session a test-token request may address, or undefined when the route is not one of the four. */
export function testTokenSessionOf(method: string, path: string): string | undefined {
  for (const route of TEST_TOKEN_ROUTES) {
    const match = route.method === method ? route.path.exec(path) : null;
    if (match) return decodeURIComponent(match[1]!);
  }
  return undefined;
}

export function apiTokenAllows(scope: ApiTokenScope, method: string, path: string): boolean {
  if (!SCOPE_METHODS[scope].includes(method)) return false;
  return scope === 'admin' || !ADMIN_SCOPE_PATHS.test(path);
}

/**
 * What a non-session credential may reach, decided before any route runs: a test token exactly
 * the four session endpoints of its own session (anything else, public routes included, is
 * refused); an API token the methods and paths of its scope.
 */
export function credentialScope(): Middleware<RequestState> {
  return async (ctx, next) => {
    if (ctx.method === 'OPTIONS') {
      await next();
      return;
    }
    const { principal } = ctx.state;
    if (ctx.get(TEST_TOKEN_HEADER)) {
      if (!principal || principal.kind !== 'test_token') {
        throw unauthenticated(ctx.state.authFailure ?? 'Invalid or expired test token');
      }
      const sessionId = testTokenSessionOf(ctx.method, ctx.path);
      if (sessionId === undefined)
        throw forbidden('A test token grants only the session recording endpoints');
      if (sessionId !== principal.sessionId) throw forbidden('This test token belongs to another session');
    } else if (principal?.kind === 'api_token' && !apiTokenAllows(principal.scope, ctx.method, ctx.path)) {
      throw forbidden(`The API token's ${principal.scope} scope does not allow ${ctx.method} ${ctx.path}`);
    }
    await next();
  };
}
