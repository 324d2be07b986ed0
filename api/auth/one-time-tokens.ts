import type { Tx } from '../../db/doors.ts';
import type { OneTimeTokenPurpose } from '../../db/schema-auth.ts';
import { randomSecret, sha256Hex } from './secrets.ts';

/** How long an emailed link (or a chat-link code) stays usable. */
export const ONE_TIME_TOKEN_LIFETIME_MS: Readonly<Record<OneTimeTokenPurpose, number>> = {
  magic_link: 15 * 60_000,
  password_reset: 60 * 60_000,
  messaging_link: 15 * 60_000,
};

export async function issueOneTimeToken(
  tx: Tx,
  userId: string,
  purpose: OneTimeTokenPurpose,
  now: Date,
): Promise<string> {
  const secret = randomSecret();
  await tx
    .insertInto('one_time_tokens')
    .values({
      user_id: userId,
      purpose,
      token_hash: sha256Hex(secret),
      created_at: now,
      expires_at: new Date(now.getTime() + ONE_TIME_TOKEN_LIFETIME_MS[purpose]),
    })
    .execute();
  return secret;
}

/**
 * Marks the token used and returns its user, in one statement, so two concurrent uses cannot
 * both succeed. Unknown, expired, used and other-purpose tokens all give undefined.
 */
export async function consumeOneTimeToken(
  tx: Tx,
  secret: string,
  purpose: OneTimeTokenPurpose,
  now: Date,
): Promise<string | undefined> {
  const row = await tx
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', sha256Hex(secret))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/**
 * Spends every outstanding token of the user for these purposes: after a password reset, a sign-in
 * link mailed earlier (perhaps to whoever had the mailbox) must not open the account any more.
 */
export async function voidOneTimeTokens(
  tx: Tx,
  userId: string,
  purposes: readonly OneTimeTokenPurpose[],
  now: Date,
): Promise<void> {
  await tx
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .execute();
}
