import type { Logger } from 'pino';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import {
  acceptedResponse,
  emailBody,
  oneTimeTokenBody,
  passwordResetConfirmBody,
  passwordResetResponse,
  sessionResponse,
} from './auth.schema.ts';
import { logInWithMagicLink, requestRecoveryLink, resetPassword } from './auth-commands.ts';
import type { AuthDependencies } from './dependencies.ts';

const TAG = 'Authentication';

export function recoveryRoutes(deps: AuthDependencies): RouteDefinition[] {
  const accepted = { data: { accepted: true as const }, status: 202 };
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
      handler: async ({ body, ctx }) => {
        await requestRecoveryLink(deps, ctx.state.log as Logger, body.email, 'magic_link');
        return accepted;
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/auth/magic-link/verify',
      tag: TAG,
      summary: "Exchange a magic link's token for a session (once)",
      auth: 'public',
      body: oneTimeTokenBody,
      response: sessionResponse,
      handler: async ({ body, ctx }) => ({ data: await logInWithMagicLink(deps, ctx, body.token) }),
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
      handler: async ({ body, ctx }) => {
        await requestRecoveryLink(deps, ctx.state.log as Logger, body.email, 'password_reset');
        return accepted;
      },
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
        await resetPassword(deps, body.token, body.password);
        return { data: { passwordReset: true as const } };
      },
    }),
  ];
}
