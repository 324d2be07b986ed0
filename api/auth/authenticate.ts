import type { Context, Middleware } from 'koa';
import type { Db } from '../../db/connection.ts';
import type { RequestState } from '../http/state.ts';
import type { ApiTokenVerifier } from './api-token-verifier.ts';
import { isApiToken } from '../../commands/auth/api-tokens.ts';
import { SESSION_COOKIE } from './cookies.ts';
import type { RevokedLogins } from './revoked-logins.ts';
import type { SessionPrincipal } from '../../commands/principal.ts';
import { InvalidSessionToken } from './session-jwt.ts';
import { VerifiedSessionTokens } from './verified-session-tokens.ts';
import { isTestTokenShaped, TEST_TOKEN_HEADER, verifyTestToken } from './test-tokens.ts';

export { SESSION_COOKIE };

export interface AuthenticateOptions {
  readonly jwtSecret: string;
  readonly db: Db;
  readonly apiTokens: ApiTokenVerifier;
  readonly revokedLogins: RevokedLogins;
  readonly now?: () => Date;
  /**
   * Runs before a credential is looked up in the database (a test token; an API token not in the
   * verifier's cache) and may refuse the request: the rate limiter's `credentialLookupGate`, so a
   * flood of made-up tokens is throttled before it costs queries.
   */
  readonly beforeLookup?: (ctx: Context) => Promise<void>;
}

/**
 * Reads the caller's credential and records who is calling: `X-Test-Token` (the extension),
 * `Authorization: Bearer` with an API token or a session JWT, or the session cookie. It refuses
 * nothing itself: a route that needs a caller answers 401, so public routes stay reachable and
 * the rate limiter can count anonymous callers by address (only `beforeLookup` may refuse, with
 * 429, an address that spent its anonymous budget). What each credential may reach is decided
 * next, by `credentialScope`.
 */
export function authenticate({
  jwtSecret,
  db,
  apiTokens,
  revokedLogins,
  now = () => new Date(),
  beforeLookup = () => Promise.resolve(),
}: AuthenticateOptions): Middleware<RequestState> {
  const sessionTokens = new VerifiedSessionTokens(jwtSecret);
  return async (ctx, next) => {
    const testToken = ctx.get(TEST_TOKEN_HEADER);
    const authorization = ctx.get('Authorization');
    const bearer = bearerToken(authorization);
    if (testToken) {
      if (isTestTokenShaped(testToken)) await beforeLookup(ctx);
      ctx.state.principal = await verifyTestToken(db, testToken, now());
      if (!ctx.state.principal) ctx.state.authFailure = 'Invalid or expired test token';
    } else if (authorization && bearer === undefined) {
      ctx.state.authFailure = 'Unsupported Authorization header';
    } else if (bearer && isApiToken(bearer)) {
      ctx.state.principal = await apiTokens.verify(bearer, () => beforeLookup(ctx));
      if (!ctx.state.principal) ctx.state.authFailure = 'Invalid or revoked API token';
    } else {
      const token = bearer ?? ctx.cookies.get(SESSION_COOKIE);
      if (token) {
        try {
          const claims = await sessionTokens.claimsOf(token, now());
          if (claims.sid && (await revokedLogins.isRevoked(claims.sid))) {
            ctx.state.authFailure = 'Session ended: log in again';
          } else {
            ctx.state.principal = sessionPrincipal(claims);
          }
        } catch (error) {
          if (!(error instanceof InvalidSessionToken)) throw error;
          ctx.state.authFailure = error.message;
        }
      }
    }
    await next();
  };
}

function bearerToken(header: string): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

function sessionPrincipal(claims: SessionPrincipal['claims']): SessionPrincipal {
  return {
    kind: 'session',
    claims,
    organizationId: claims.organization_id ?? null,
    rateLimitKey: `user:${claims.sub}`,
  };
}
