import type { Context } from 'koa';
import type { Logger } from 'pino';
import { asSystem } from '../../db/doors.ts';
import { clearLoginFailures } from '../../db/repositories/login-failures.ts';
import { voidOneTimeTokens } from '../../db/repositories/one-time-tokens.ts';
import { revokeAllRefreshTokens, revokeRefreshFamily } from '../../db/repositories/refresh-tokens.ts';
import { setPasswordHash } from '../../db/repositories/users.ts';
import { conflict, unauthenticated } from '../../lib/errors.ts';
import { createAccount, findAccountByEmail, findAccountById, normalizeEmail } from './accounts.ts';
import type { RegisterInput } from './auth.schema.ts';
import { REFRESH_COOKIE } from './cookies.ts';
import type { AuthDependencies } from './dependencies.ts';
import { consumeOneTimeToken, issueOneTimeToken } from '../../commands/auth/one-time-tokens.ts';
import { hashPassword } from './password-hash.ts';
import { checkPassword } from './password-login.ts';
import type { Principal } from '../../commands/principal.ts';
import { recoveryMail } from './recovery-mail.ts';
import type { RecoveryKind } from '../../lib/outbox-messages.ts';
import { queueNotification } from '../../db/repositories/notification-outbox.ts';
import { startNotificationDelivery } from '../../clients/temporal.ts';
import { serviceTaskQueue } from '../../commands/context.ts';
import { revokeFamilyOf } from './refresh-tokens.ts';
import { clearSessionCookies, openSession, type SessionView } from './session-issuer.ts';
import type { SessionClaims } from './session-jwt.ts';

// The commands behind both the REST routes under /api/auth and the sign-in pages: each rule of
// signing in exists once. Each that logs in sets the session and refresh cookies on `ctx`.

export const INVALID_LINK = 'This link is invalid, expired or already used';

export async function registerAccount(
  deps: AuthDependencies,
  ctx: Context,
  input: RegisterInput,
): Promise<SessionView> {
  const passwordHash = await hashPassword(input.password);
  const account = await asSystem(deps.db, async (tx) => {
    if (await findAccountByEmail(tx, input.email))
      throw conflict('An account with this email already exists');
    return createAccount(tx, {
      email: input.email,
      role: input.role,
      displayName: input.displayName ?? null,
      passwordHash,
      ...(input.organizationName ? { organizationName: input.organizationName } : {}),
    });
  });
  return openSession(deps, ctx, account);
}

export async function logInWithPassword(
  deps: AuthDependencies,
  ctx: Context,
  email: string,
  password: string,
): Promise<SessionView> {
  return openSession(deps, ctx, await checkPassword(deps, email, password));
}

/** Same answer whether or not the email has an account (or is suspended). */
export async function requestRecoveryLink(
  deps: AuthDependencies,
  log: Logger,
  email: string,
  kind: RecoveryKind,
): Promise<void> {
  const notificationId = await asSystem(deps.db, async (tx) => {
    const account = await findAccountByEmail(tx, email);
    if (!account || account.status === 'suspended') return undefined;
    const now = deps.now();
    const token = await issueOneTimeToken(tx, account.id, kind, now);
    const mail = recoveryMail(deps.config.http.baseUrl, account, kind);
    // Queued with the token, in its transaction: the mail is sent (and retried) by the outbox.
    return queueNotification(
      tx,
      { channel: 'email', recipient: account.email, userId: account.id, kind, ...mail, secret: token },
      now,
    );
  });
  // Not awaited: the answer must not take longer for emails that have accounts, or its timing
  // would reveal them. A start that fails leaves the row to the lifecycle reconciler.
  if (notificationId)
    startNotificationDelivery(deps.temporal, serviceTaskQueue(deps), notificationId).catch((error: unknown) =>
      log.warn({ err: error, kind }, 'recovery mail queued; its delivery starts later'),
    );
}

export async function logInWithMagicLink(
  deps: AuthDependencies,
  ctx: Context,
  token: string,
): Promise<SessionView> {
  const account = await asSystem(deps.db, async (tx) => {
    const userId = await consumeOneTimeToken(tx, token, 'magic_link', deps.now());
    return userId ? findAccountById(tx, userId) : undefined;
  });
  if (!account) throw unauthenticated(INVALID_LINK);
  return openSession(deps, ctx, account);
}

/** Sets a new password; ends every existing login of the account and voids its other emailed links. */
export async function resetPassword(deps: AuthDependencies, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  const now = deps.now();
  const endedLogins = await asSystem(deps.db, async (tx) => {
    const userId = await consumeOneTimeToken(tx, token, 'password_reset', now);
    if (!userId) return undefined;
    const email = await setPasswordHash(tx, userId, passwordHash);
    await clearLoginFailures(tx, normalizeEmail(email));
    await voidOneTimeTokens(tx, userId, ['magic_link', 'password_reset'], now);
    return revokeAllRefreshTokens(tx, userId, now);
  });
  if (!endedLogins) throw unauthenticated(INVALID_LINK);
  // This instance refuses their session JWTs at once; others within the 60 s cache window.
  for (const login of endedLogins) deps.revokedLogins.markRevoked(login);
}

/** Ends this login: its refresh tokens and session JWTs stop working; both cookies are cleared. */
export async function logOut(deps: AuthDependencies, ctx: Context, principal: Principal | null | undefined) {
  const presented = ctx.cookies.get(REFRESH_COOKIE);
  const now = deps.now();
  const fromCookie = presented && (await asSystem(deps.db, (tx) => revokeFamilyOf(tx, presented, now)));
  // Bearer clients and pages have no refresh cookie (its path is /api/auth): the JWT names the login.
  const sid = principal?.kind === 'session' ? (principal.claims as SessionClaims).sid : undefined;
  if (sid && sid !== fromCookie) await asSystem(deps.db, (tx) => revokeRefreshFamily(tx, sid, now));
  for (const login of [fromCookie, sid]) if (login) deps.revokedLogins.markRevoked(login);
  clearSessionCookies(deps, ctx);
}
