import type { Logger } from 'pino';
import { asSystem } from '../../db/doors.ts';
import { clearLoginFailures } from '../../db/repositories/login-failures.ts';
import { voidOneTimeTokens } from '../../db/repositories/one-time-tokens.ts';
import { revokeAllRefreshTokens } from '../../db/repositories/refresh-tokens.ts';
import { setPasswordHash } from '../../db/repositories/users.ts';
import { unauthenticated } from '../http/errors.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { findAccountByEmail, findAccountById, normalizeEmail } from './accounts.ts';
import {
  acceptedResponse,
  emailBody,
  oneTimeTokenBody,
  passwordResetConfirmBody,
  passwordResetResponse,
  sessionResponse,
} from './auth.schema.ts';
import type { AuthDependencies } from './dependencies.ts';
import { consumeOneTimeToken, issueOneTimeToken } from './one-time-tokens.ts';
import { hashPassword } from './password-hash.ts';
import { sendRecoveryMail, type RecoveryKind } from './recovery-mail.ts';
import { openSession } from './session-issuer.ts';

const TAG = 'Authentication';
const INVALID_LINK = 'This link is invalid, expired or already used';

export function recoveryRoutes(deps: AuthDependencies): RouteDefinition[] {
  /** Same answer whether or not the email has an account (or is suspended). */
  async function requestLink(email: string, kind: RecoveryKind, log: Logger) {
    const issued = await asSystem(deps.db, async (tx) => {
      const account = await findAccountByEmail(tx, email);
      if (!account || account.status === 'suspended') return undefined;
      return { account, token: await issueOneTimeToken(tx, account.id, kind, deps.now()) };
    });
    if (issued) sendRecoveryMail(deps, log, issued.account, kind, issued.token);
    return { data: { accepted: true as const }, status: 202 };
  }

  return [
    defineRoute({
      method: 'POST',
      path: '/api/auth/magic-link',
      tag: TAG,
      summary: 'Email a one-time sign-in link (valid 15 minutes)',
      auth: 'public',
      body: emailBody,
      response: acceptedResponse,
      status: 202,
      handler: ({ body, ctx }) => requestLink(body.email, 'magic_link', ctx.state.log as Logger),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/auth/magic-link/verify',
      tag: TAG,
      summary: "Exchange a magic link's token for a session (once)",
      auth: 'public',
      body: oneTimeTokenBody,
      response: sessionResponse,
      handler: async ({ body, ctx }) => {
        const account = await asSystem(deps.db, async (tx) => {
          const userId = await consumeOneTimeToken(tx, body.token, 'magic_link', deps.now());
          return userId ? findAccountById(tx, userId) : undefined;
        });
        if (!account) throw unauthenticated(INVALID_LINK);
        return { data: await openSession(deps, ctx, account) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/auth/password-reset',
      tag: TAG,
      summary: 'Email a one-time password reset link (valid 60 minutes)',
      auth: 'public',
      body: emailBody,
      response: acceptedResponse,
      status: 202,
      handler: ({ body, ctx }) => requestLink(body.email, 'password_reset', ctx.state.log as Logger),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/auth/password-reset/confirm',
      tag: TAG,
      summary:
        'Set a new password with a reset token (once); ends every existing login of the account and voids its other emailed links',
      auth: 'public',
      body: passwordResetConfirmBody,
      response: passwordResetResponse,
      handler: async ({ body }) => {
        const passwordHash = await hashPassword(body.password);
        const now = deps.now();
        const endedLogins = await asSystem(deps.db, async (tx) => {
          const userId = await consumeOneTimeToken(tx, body.token, 'password_reset', now);
          if (!userId) return undefined;
          const email = await setPasswordHash(tx, userId, passwordHash);
          await clearLoginFailures(tx, normalizeEmail(email));
          await voidOneTimeTokens(tx, userId, ['magic_link', 'password_reset'], now);
          return revokeAllRefreshTokens(tx, userId, now);
        });
        if (!endedLogins) throw unauthenticated(INVALID_LINK);
        // This instance refuses their session JWTs at once; others within the 60 s cache window.
        for (const login of endedLogins) deps.revokedLogins.markRevoked(login);
        return { data: { passwordReset: true as const } };
      },
    }),
  ];
}
