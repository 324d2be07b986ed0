/**
 * Stands in a queued message's stored body for its secret (a test token). The secret itself is
 * kept only in the outbox row's payload until the message is delivered, superseded or given up,
 * and is then removed, so the outbox never keeps a usable credential longer than it must.
 */
export const SECRET_PLACEHOLDER = '{{secret}}';

/** The outbox row kind of a test-token message. */
export const TEST_TOKEN_KIND = 'test_token';

/** The outbox row kinds of the emailed sign-in and password-reset links. */
export const RECOVERY_MAIL_KINDS = ['magic_link', 'password_reset'] as const;
export type RecoveryKind = (typeof RECOVERY_MAIL_KINDS)[number];

/** The body put in the outbox for a test token; the token replaces the placeholder when sent. */
export function testTokenMessageBody(expiresAt: Date, startUrl: string): string {
  return [
    `Start your usability session at ${startUrl}: one button there hands it to the browser extension.`,
    'Or paste this test token into the extension yourself:',
    SECRET_PLACEHOLDER,
    `It works until ${expiresAt.toISOString()} and only for this session.`,
  ].join('\n');
}

/** A message whose secret was already dropped (superseded or given up) can never be sent. */
export class MissingSecret extends Error {
  override readonly name = 'MissingSecret';
}

/** The text to send: the body with its secret filled in. */
export function withSecret(body: string, secret: string | undefined): string {
  if (!body.includes(SECRET_PLACEHOLDER)) return body;
  if (secret === undefined) throw new MissingSecret('the message needs a secret the outbox no longer holds');
  return body.replaceAll(SECRET_PLACEHOLDER, secret);
}
