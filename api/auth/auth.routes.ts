import { asSystem, asUser } from '../../db/doors.ts';
import { unauthenticated } from '../../lib/errors.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { findAccountById } from './accounts.ts';
import { logInWithPassword, logOut, registerAccount } from './auth-commands.ts';
import { loggedOutResponse, loginBody, registerBody, sessionResponse, userView } from './auth.schema.ts';
import { REFRESH_COOKIE } from './cookies.ts';
import type { AuthDependencies } from './dependencies.ts';
import { RefreshRefused, rotateRefreshToken } from './refresh-tokens.ts';
import { clearSessionCookies, writeSession } from './session-issuer.ts';

const TAG = 'Authentication';

export function authRoutes(deps: AuthDependencies): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/auth/register',
      tag: TAG,
      summary: 'Create a business (with its organization) or tester account and log it in',
      auth: 'public',
      body: registerBody,
      response: sessionResponse,
      status: 201,
      errors: [409],
      handler: async ({ body, ctx }) => ({ data: await registerAccount(deps, ctx, body) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/auth/login',
      tag: TAG,
      summary: 'Log in with email and password; sets the session and refresh cookies',
      auth: 'public',
      body: loginBody,
      response: sessionResponse,
      handler: async ({ body, ctx }) => ({
        data: await logInWithPassword(deps, ctx, body.email, body.password),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/auth/refresh',
      tag: TAG,
      summary: 'Exchange the refresh cookie for a new session JWT and a rotated refresh cookie',
      auth: 'public',
      response: sessionResponse,
      handler: async ({ ctx }) => {
        const presented = ctx.cookies.get(REFRESH_COOKIE);
        if (!presented) throw unauthenticated('Refresh token missing');
        const now = deps.now();
        // A refused rotation may have revoked a family; that must commit, so it is caught inside.
        const outcome = await asSystem(deps.db, async (tx) => {
          try {
            const refresh = await rotateRefreshToken(tx, presented, now);
            return { refresh, account: await findAccountById(tx, refresh.userId) };
          } catch (error) {
            if (error instanceof RefreshRefused)
              return { refused: error.message, family: error.revokedFamilyId };
            throw error;
          }
        });
        if ('refused' in outcome) {
          if (outcome.family) deps.revokedLogins.markRevoked(outcome.family);
          clearSessionCookies(deps, ctx);
          throw unauthenticated(outcome.refused);
        }
        if (!outcome.account || outcome.account.status === 'suspended') {
          clearSessionCookies(deps, ctx);
          throw unauthenticated('Account unavailable');
        }
        return { data: await writeSession(deps, ctx, outcome.account, outcome.refresh) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/auth/logout',
      tag: TAG,
      summary: 'End this login: its refresh tokens and session JWTs stop working; both cookies are cleared',
      auth: 'public',
      response: loggedOutResponse,
      handler: async ({ ctx, principal }) => {
        await logOut(deps, ctx, principal);
        return { data: { loggedOut: true } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/auth/me',
      tag: TAG,
      summary: 'The calling user',
      auth: 'user',
      response: userView,
      handler: async ({ principal }) => {
        const account = await asUser(deps.db, principal.claims, (tx) =>
          findAccountById(tx, principal.claims.sub),
        );
        if (!account) throw unauthenticated('Account no longer exists');
        const { status: _status, ...view } = account;
        return { data: view };
      },
    }),
  ];
}
