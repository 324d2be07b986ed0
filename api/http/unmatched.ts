import type { Middleware } from 'koa';
import { success } from './envelope.ts';
import { ApiError } from './errors.ts';
import type { RequestState } from './state.ts';

/**
 * What no route answered, in the envelope. Placed before the router and its `allowedMethods()`, it
 * decides after them (a throwing last link would pre-empt the router's own check, and the router's
 * throwing mode drops the Allow header):
 * - a plain OPTIONS (no CORS preflight, which `cors` answers itself): 200 with the Allow header and
 *   the envelope, where the router would leave an empty text/plain body;
 * - another method on a known path: 405 with Allow;
 * - an unknown path: 404.
 */
export function unmatchedRoutes(): Middleware<RequestState> {
  return async (ctx, next) => {
    await next();
    const allow = ctx.response.get('Allow');
    if (ctx.method === 'OPTIONS' && ctx.status === 200 && allow && !ctx.body) {
      ctx.body = success(null);
      return;
    }
    if (ctx.body != null) return;
    // 501 is the router's answer to a method it has never heard of (PROPFIND): on a known path that
    // is as much "not allowed" as DELETE, and on an unknown path the route is what is missing.
    if ((ctx.status === 405 || ctx.status === 501) && allow)
      throw new ApiError('method_not_allowed', 'Method not allowed', { Allow: allow });
    if (ctx.status === 404 || ctx.status === 501)
      throw new ApiError('not_found', `No route for ${ctx.method} ${ctx.path}`);
  };
}
