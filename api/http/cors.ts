import type { Middleware } from 'koa';
import { ApiError } from './errors.ts';
import { success } from './envelope.ts';
import type { RequestState } from './state.ts';

const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Request-Id, X-Test-Token';
const ALLOWED_METHODS = 'GET, POST, PATCH, PUT, DELETE, OPTIONS';
const EXPOSED_HEADERS = 'Retry-After, X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface CorsPolicy {
  readonly baseUrl: string;
  readonly allowLocalhost: boolean;
}

/** The spec's rule: the service's own origin, its sub-domains, and localhost on any port in development. */
export function isAllowedOrigin(origin: string, { baseUrl, allowLocalhost }: CorsPolicy): boolean {
  let candidate: URL;
  try {
    candidate = new URL(origin);
  } catch {
    return false;
  }
  if (candidate.origin !== origin) return false;
  const own = new URL(baseUrl);
  if (candidate.origin === own.origin) return true;
  if (allowLocalhost && LOCAL_HOSTS.has(candidate.hostname) && /^https?:$/.test(candidate.protocol))
    return true;
  return (
    candidate.protocol === own.protocol &&
    candidate.port === own.port &&
    candidate.hostname.endsWith(`.${own.hostname}`)
  );
}

/**
 * Requests without an Origin header (servers, the extension's service worker, curl) pass through.
 * Browser requests from other origins are refused with 403 rather than merely left without CORS headers,
 * so a misconfigured front end fails loudly.
 */
export function cors(policy: CorsPolicy): Middleware<RequestState> {
  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    ctx.vary('Origin');
    if (!origin) {
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
