import type { Middleware } from 'koa';
import type { RequestState } from '../http/state.ts';
import type { Principal } from './principal.ts';
import { InvalidSessionToken, verifySessionJwt } from './session-jwt.ts';

export const SESSION_COOKIE = 'session';

/**
 * Reads the caller's credential (Authorization: Bearer <JWT> or the session cookie) and records
 * who is calling. It refuses nothing itself: a route that needs a caller answers 401, so public
 * routes stay reachable and the rate limiter can count anonymous callers by address.
 */
export function authenticate(
  jwtSecret: string,
  now: () => Date = () => new Date(),
): Middleware<RequestState> {
  return async (ctx, next) => {
    const token = bearerToken(ctx.get('Authorization')) ?? ctx.cookies.get(SESSION_COOKIE);
    if (ctx.get('Authorization') && token === undefined) {
      ctx.state.authFailure = 'Unsupported Authorization header';
    } else if (token) {
      try {
        const claims = await verifySessionJwt(token, jwtSecret, now());
        ctx.state.principal = sessionPrincipal(claims);
      } catch (error) {
        if (!(error instanceof InvalidSessionToken)) throw error;
        ctx.state.authFailure = error.message;
      }
    }
    await next();
  };
}

function bearerToken(header: string): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

function sessionPrincipal(claims: Principal['claims']): Principal {
  return {
    kind: 'session',
    claims,
    organizationId: claims.organization_id ?? null,
    rateLimitKey: `user:${claims.sub}`,
  };
}
