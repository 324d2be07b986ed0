import type { Middleware } from 'koa';
import { success } from './envelope.ts';
import { ApiError } from '../../lib/errors.ts';
import type { RouteDefinition } from './route.ts';
import type { RequestState } from './state.ts';

interface ParamRoute {
  readonly method: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly accepts: (params: Record<string, string>) => boolean;
}

/** The routes with path parameters, each with what its parameters accept. */
function paramRoutes(routes: readonly RouteDefinition[]): ParamRoute[] {
  return routes.flatMap((route) => {
    if (!route.params) return [];
    const names: string[] = [];
    const source = route.path
      .split('/')
      .map((segment) => {
        if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(segment.slice(1));
        return '([^/]+)';
      })
      .join('/');
    const params = route.params;
    return [
      {
        method: route.method,
        pattern: new RegExp(`^${source}/?$`),
        names,
        accepts: (values: Record<string, string>) => params.safeParse(values).success,
      },
    ];
  });
}

/** A path segment as the router hands it to a route: decoded, or as it is when it cannot be. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The router's Allow header less the methods whose only routes here take a parameter that cannot
 * be this path's (`GET /api/audits/:id` on `/api/audits/full`, an id that is no UUID): the router
 * matches the pattern, but that method answers 404 there.
 */
function allowedHere(allow: string, path: string, routes: readonly ParamRoute[]): string {
  const refused = new Set<string>();
  const methods = allow.split(/,\s*/);
  for (const method of methods) {
    const candidates = routes.filter((route) => route.method === method && route.pattern.test(path));
    if (!candidates.length) continue;
    const accepted = candidates.some((route) => {
      const values = route.pattern.exec(path)!.slice(1);
      return route.accepts(
        Object.fromEntries(route.names.map((name, index) => [name, decoded(values[index]!)])),
      );
    });
    if (!accepted) refused.add(method);
  }
  if (refused.has('GET')) refused.add('HEAD');
  return methods.filter((method) => !refused.has(method)).join(', ');
}

/**
 * What no route answered, in the envelope. Placed before the router and its `allowedMethods()`, it
 * decides after them (a throwing last link would pre-empt the router's own check, and the router's
 * throwing mode drops the Allow header):
 * - a plain OPTIONS (no CORS preflight, which `cors` answers itself): 200 with the Allow header and
 *   the envelope, where the router would leave an empty text/plain body;
 * - another method on a known path: 405 with Allow;
 * - an unknown path: 404.
 */
export function unmatchedRoutes(routes: readonly RouteDefinition[]): Middleware<RequestState> {
  const withParams = paramRoutes(routes);
  return async (ctx, next) => {
    await next();
    let allow = ctx.response.get('Allow');
    if (allow) {
      allow = allowedHere(allow, ctx.path, withParams);
      if (allow) ctx.set('Allow', allow);
      else {
        // No method takes this path after all: it is as unknown as any other.
        ctx.remove('Allow');
        if (ctx.method === 'OPTIONS' || ctx.status === 405) ctx.status = 404;
      }
    }
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
