import type { Tx } from '../../db/doors.ts';
import { randomSecret, sha256Hex } from './secrets.ts';

/** Time a user has to get through the provider's pages. */
export const OAUTH_STATE_LIFETIME_MS = 10 * 60_000;

export interface OAuthState {
  readonly state: string;
  readonly codeVerifier: string;
}

export async function createOAuthState(
  tx: Tx,
  provider: string,
  signupRole: 'business' | 'tester',
  now: Date,
): Promise<OAuthState> {
  const state = randomSecret();
  // 32 random bytes give a 43-character verifier, the minimum RFC 7636 allows.
  const codeVerifier = randomSecret(32);
  await tx
    .insertInto('oauth_states')
    .values({
      state_hash: sha256Hex(state),
      provider,
      code_verifier: codeVerifier,
      signup_role: signupRole,
      created_at: now,
      expires_at: new Date(now.getTime() + OAUTH_STATE_LIFETIME_MS),
    })
    .execute();
  return { state, codeVerifier };
}

/** Uses a state once: unknown, expired or used states give undefined. */
export async function consumeOAuthState(tx: Tx, state: string, now: Date) {
  return tx
    .updateTable('oauth_states')
    .set({ used_at: now })
    .where('state_hash', '=', sha256Hex(state))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['provider', 'code_verifier', 'signup_role'])
    .executeTakeFirst();
}
