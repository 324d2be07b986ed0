import { SECRET_PLACEHOLDER, type RecoveryKind } from '../../lib/outbox-messages.ts';
import type { AccountView } from './accounts.ts';

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

/**
 * The recovery mail as the outbox keeps it: the link's token stands as SECRET_PLACEHOLDER, filled
 * in when the mail is sent and dropped from the row after (the token is base64url: no encoding).
 */
export function recoveryMail(
  baseUrl: string,
  account: AccountView,
  kind: RecoveryKind,
): { subject: string; body: string } {
  const content = CONTENT[kind];
  return {
    subject: content.subject,
    body: [
      `Hello${account.displayName ? ` ${account.displayName}` : ''},`,
      '',
      `Use this link within ${content.minutes} minutes to ${content.action}. It works once.`,
      '',
      `${baseUrl}${content.page}?token=${SECRET_PLACEHOLDER}`,
      '',
      'If you did not ask for it, ignore this email.',
    ].join('\n'),
  };
}
