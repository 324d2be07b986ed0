import type { Tx } from '../../db/doors.ts';
import { insertOneTimeToken, spendOneTimeToken } from '../../db/repositories/one-time-tokens.ts';
import type { OneTimeTokenPurpose } from '../../lib/domain.ts';
import { randomSecret, sha256Hex } from '../../lib/secrets.ts';

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
  await insertOneTimeToken(tx, {
    user_id: userId,
    purpose,
    token_hash: sha256Hex(secret),
    created_at: now,
    expires_at: new Date(now.getTime() + ONE_TIME_TOKEN_LIFETIME_MS[purpose]),
  });
  return secret;
}

/**
 * Uses the token once and returns its user; unknown, expired, used and other-purpose tokens all
 * give undefined (one statement decides, so two concurrent uses cannot both succeed).
 */
export function consumeOneTimeToken(
  tx: Tx,
  secret: string,
  purpose: OneTimeTokenPurpose,
  now: Date,
): Promise<string | undefined> {
  return spendOneTimeToken(tx, sha256Hex(secret), purpose, now);
}
