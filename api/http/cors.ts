import type { Middleware } from 'koa';
import { TEST_TOKEN_HEADER } from '../auth/test-tokens.ts';
import { isAllowedOrigin, type OriginPolicy } from '../../lib/allowed-origins.ts';
import { ApiError } from '../../lib/errors.ts';
import { success } from './envelope.ts';
import type { RequestState } from './state.ts';

const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Request-Id, X-Test-Token';
const ALLOWED_METHODS = 'GET, POST, PATCH, PUT, DELETE, OPTIONS';
const EXPOSED_HEADERS = 'Retry-After, X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';
/** Chromium's extension ids are 32 letters a-p; Firefox's are UUIDs. */
const EXTENSION_ORIGIN =
  /^(?:chrome-extension:\/\/[a-p]{32}|moz-extension:\/\/[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})$/;

export interface CorsPolicy extends OriginPolicy {
  /**
   * Paths outside the rule: the site's own pages. Their form posts are navigations, which send
   * `Origin: null` under the pages' `Referrer-Policy: no-referrer`; a CSRF token guards them instead.
   */
  readonly exempt?: (path: string) => boolean;
}

/**
 * Requests without an Origin header (servers, curl) pass through, and so do requests from a browser
 * extension that carry `X-Test-Token`: the tester's extension (extension/) sends them from its service
 * worker, which Chromium exempts from CORS for the hosts it has permission for but still labels with
 * its `chrome-extension://` origin; the test token alone then decides (cookies are ignored beside it).
 * Browser requests from other origins are refused with 403 rather than merely left without CORS headers,
 * so a misconfigured front end fails loudly.
 */
export function cors(policy: CorsPolicy): Middleware<RequestState> {
  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    ctx.vary('Origin');
    if (
      !origin ||
      (EXTENSION_ORIGIN.test(origin) && ctx.get(TEST_TOKEN_HEADER)) ||
      policy.exempt?.(ctx.path)
    ) {
      await next();
      return;
    }
    if (!isAllowedOrigin(origin, policy)) throw new ApiError('forbidden', `Origin ${origin} is not allowed`);
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Access-Control-Allow-Credentials', 'true');
    ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
      ctx.set('Access-Control-Allow-Methods', ALLOWED_METHODS);
      ctx.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 200;
      ctx.body = success(null);
      return;
    }
    await next();
  };
}
