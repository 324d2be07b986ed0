import type { ErrorStatus } from '../../lib/errors.ts';
import type { HttpMethod, RouteDefinition } from './route.ts';

/** What each documented error status means, in the words of the spec's error table. */
export const ERROR_DESCRIPTIONS: Readonly<Record<ErrorStatus, string>> = {
  400: 'Malformed body or query parameter',
  401: 'Missing or invalid credentials (also a presented test token, API token or JWT that is invalid)',
  403: 'Insufficient permission, a credential outside its scope, or an origin refused by CORS',
  404: 'Resource not found',
  405: 'Method not allowed on this path; the Allow header lists the methods it has',
  409: 'State precondition not met; the message names the required state',
  413: 'Body too large',
  422: 'Validation failed; the message names the first violation',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Internal error',
  503: 'A dependency is unreachable (the database, Temporal, the rate limit store, a provider) or unconfigured; the message names it',
};

/** Methods whose bodies are parsed (koa-body's defaults): malformed JSON (400) or too much of it (413). */
const BODY_METHODS: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH']);

export type ErrorShape = Pick<
  RouteDefinition,
  'method' | 'auth' | 'body' | 'query' | 'params' | 'errors' | 'rawBody' | 'credential'
>;

/**
 * The error statuses a route can answer: those the shared chain gives every route of its shape,
 * plus the ones its handler raises, which the route declares in `errors`.
 * - every route: 401 and 403 (a presented credential may be refused, and so may a browser's
 *   origin or a credential's scope, before any route runs; user routes also without a caller or
 *   with another role), 429, 500, and 503 (the rate limiter's store, the database or Temporal
 *   unreachable: the rate limiter runs on every route, before it);
 * - a parsed body (POST, PUT, PATCH): 400 and 413; a body schema: 422. A raw body (webhooks) is
 *   read by the route itself: 413 only, and its `body` schema merely documents it (a route that
 *   validates it declares 400 and 422);
 * - a query schema: 400 (a value that cannot be read) and 422;
 * - a path parameter: 404 (an id that cannot exist, or that the caller cannot see);
 * - `route.errors`: 409 for a state precondition, 404 for an id named in the body, ...
 * 405 belongs to no operation: it answers methods a path does not have (see the document's description).
 */
export function documentedErrors(route: ErrorShape): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>([401, 403, 429, 500, 503]);
  const add = (...more: ErrorStatus[]) => more.forEach((status) => statuses.add(status));
  if (route.rawBody) add(413);
  else {
    if (BODY_METHODS.has(route.method)) add(400, 413);
    if (route.body) add(422);
  }
  if (route.query) add(400, 422);
  if (route.params) add(404);
  add(...(route.errors ?? []));
  return [...statuses].sort((a, b) => a - b);
}
