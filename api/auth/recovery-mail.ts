import type { Logger } from 'pino';
import type { AccountView } from './accounts.ts';
import type { AuthDependencies } from './dependencies.ts';

export type RecoveryKind = 'magic_link' | 'password_reset';

const CONTENT: Readonly<
  Record<RecoveryKind, { subject: string; page: string; action: string; minutes: number }>
> = {
  magic_link: { subject: 'Your sign-in link', page: '/login/magic-link', action: 'sign in', minutes: 15 },
  password_reset: {
    subject: 'Reset your password',
    page: '/reset-password',
    action: 'choose a new password',
    minutes: 60,
  },
};

/** The page of the web app that takes the token and posts it to the API. */
export function recoveryLink(baseUrl: string, kind: RecoveryKind, token: string): string {
  return `${baseUrl}${CONTENT[kind].page}?token=${encodeURIComponent(token)}`;
}

/**
 * Sends without making the caller wait: the HTTP answer must not take longer for emails that
 * have accounts, or its timing would reveal them. A failed send is logged; the user asks again.
 */
export function sendRecoveryMail(
  deps: AuthDependencies,
  log: Logger,
  account: AccountView,
  kind: RecoveryKind,
  token: string,
): void {
  const content = CONTENT[kind];
  const link = recoveryLink(deps.config.http.baseUrl, kind, token);
  deps.email
    .send({
      to: account.email,
      subject: content.subject,
      text: [
        `Hello${account.displayName ? ` ${account.displayName}` : ''},`,
        '',
        `Use this link within ${content.minutes} minutes to ${content.action}. It works once.`,
        '',
        link,
        '',
        'If you did not ask for it, ignore this email.',
      ].join('\n'),
    })
    .catch((error: unknown) => log.error({ err: error, kind }, 'recovery email not sent'));
}
