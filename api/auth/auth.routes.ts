import { asSystem, asUser } from '../../db/doors.ts';
import { revokeRefreshFamily } from '../../db/repositories/refresh-tokens.ts';
import { conflict, unauthenticated } from '../http/errors.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { createAccount, findAccountByEmail, findAccountById } from './accounts.ts';
import { loggedOutResponse, loginBody, registerBody, sessionResponse, userView } from './auth.schema.ts';
import { REFRESH_COOKIE } from './cookies.ts';
import type { AuthDependencies } from './dependencies.ts';
import { hashPassword } from './password-hash.ts';
import { checkPassword } from './password-login.ts';
import { RefreshRefused, revokeFamilyOf, rotateRefreshToken } from './refresh-tokens.ts';
import { clearSessionCookies, openSession, writeSession } from './session-issuer.ts';
import type { SessionClaims } from './session-jwt.ts';

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
      handler: async ({ body, ctx }) => {
        const passwordHash = await hashPassword(body.password);
        const account = await asSystem(deps.db, async (tx) => {
          if (await findAccountByEmail(tx, body.email))
            throw conflict('An account with this email already exists');
          return createAccount(tx, {
            email: body.email,
            role: body.role,
            displayName: body.displayName ?? null,
            passwordHash,
            ...(body.organizationName ? { organizationName: body.organizationName } : {}),
          });
        });
        return { data: await openSession(deps, ctx, account) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/auth/login',
      tag: TAG,
      summary: 'Log in with email and password; sets the session and refresh cookies',
      auth: 'public',
      body: loginBody,
      response: sessionResponse,
      handler: async ({ body, ctx }) => {
        const account = await checkPassword(deps, body.email, body.password);
        return { data: await openSession(deps, ctx, account) };
      },
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
        const presented = ctx.cookies.get(REFRESH_COOKIE);
        const now = deps.now();
        const fromCookie = presented && (await asSystem(deps.db, (tx) => revokeFamilyOf(tx, presented, now)));
        // Bearer clients have no refresh cookie: their JWT names the login.
        const sid = principal?.kind === 'session' ? (principal.claims as SessionClaims).sid : undefined;
        if (sid && sid !== fromCookie) await asSystem(deps.db, (tx) => revokeRefreshFamily(tx, sid, now));
        for (const login of [fromCookie, sid]) if (login) deps.revokedLogins.markRevoked(login);
        clearSessionCookies(deps, ctx);
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
