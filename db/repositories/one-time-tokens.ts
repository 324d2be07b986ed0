import type { Insertable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { OneTimeTokensTable } from '../schema-auth.ts';
import type { OneTimeTokenPurpose } from '../../lib/domain.ts';

// Single-use tokens mailed or shown to a user (0011, 0027). A token is found by the SHA-256 of its
// secret; the caller hashes.

export async function insertOneTimeToken(tx: Tx, token: Insertable<OneTimeTokensTable>): Promise<void> {
  await tx.insertInto('one_time_tokens').values(token).execute();
}

/**
 * Marks the token used and returns its user, in one statement, so two concurrent uses cannot
 * both succeed. Unknown, expired, used and other-purpose tokens all give undefined.
 */
export async function spendOneTimeToken(
  tx: Tx,
  tokenHash: string,
  purpose: OneTimeTokenPurpose,
  now: Date,
): Promise<string | undefined> {
  const row = await tx
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
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
