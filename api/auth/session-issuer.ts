import type { Context } from 'koa';
import { asSystem } from '../../db/doors.ts';
import { forbidden } from '../../lib/errors.ts';
import { claimsOf, type AccountView } from './accounts.ts';
import { clearCookie, REFRESH_COOKIE, REFRESH_COOKIE_PATH, SESSION_COOKIE, setCookie } from './cookies.ts';
import type { AuthDependencies } from './dependencies.ts';
import { startRefreshFamily, type IssuedRefreshToken } from './refresh-tokens.ts';
import { SESSION_JWT_LIFETIME_SECONDS, signSessionJwt } from './session-jwt.ts';

export interface SessionView {
  readonly user: {
    readonly id: string;
    readonly email: string;
    readonly role: AccountView['role'];
    readonly displayName: string | null;
    readonly organizationId: string | null;
  };
  /** The same JWT as the session cookie, for clients that send `Authorization: Bearer`. */
  readonly sessionToken: string;
  readonly expiresAt: string;
}

const secureCookies = (deps: AuthDependencies) => deps.config.env !== 'development';

/** A successful login by any method: a new refresh family, a session JWT, both cookies. */
export async function openSession(
  deps: AuthDependencies,
  ctx: Context,
  account: AccountView,
): Promise<SessionView> {
  if (account.status === 'suspended') throw forbidden('This account is suspended');
  const refresh = await asSystem(deps.db, (tx) => startRefreshFamily(tx, account.id, deps.now()));
  return writeSession(deps, ctx, account, refresh);
}

/** Signs the session JWT for `account` and sets the session and refresh cookies. */
export async function writeSession(
  deps: AuthDependencies,
  ctx: Context,
  account: AccountView,
  refresh: IssuedRefreshToken,
): Promise<SessionView> {
  const now = deps.now();
  const sessionToken = await signSessionJwt(
    claimsOf(account),
    deps.config.auth.jwtSecret,
    now,
    SESSION_JWT_LIFETIME_SECONDS,
    refresh.familyId,
  );
  const secure = secureCookies(deps);
  setCookie(ctx, SESSION_COOKIE, sessionToken, {
    maxAgeSeconds: SESSION_JWT_LIFETIME_SECONDS,
    sameSite: 'Lax',
    secure,
  });
  setCookie(ctx, REFRESH_COOKIE, refresh.secret, {
    maxAgeSeconds: (refresh.expiresAt.getTime() - now.getTime()) / 1000,
    path: REFRESH_COOKIE_PATH,
    sameSite: 'Strict',
    secure,
  });
  return {
    user: {
      id: account.id,
      email: account.email,
      role: account.role,
      displayName: account.displayName,
      organizationId: account.organizationId,
    },
    sessionToken,
    expiresAt: new Date(now.getTime() + SESSION_JWT_LIFETIME_SECONDS * 1000).toISOString(),
  };
}

export function clearSessionCookies(deps: AuthDependencies, ctx: Context): void {
  const secure = secureCookies(deps);
  clearCookie(ctx, SESSION_COOKIE, { secure, sameSite: 'Lax' });
  clearCookie(ctx, REFRESH_COOKIE, { secure, path: REFRESH_COOKIE_PATH, sameSite: 'Strict' });
}
