import type { Tx } from '../../db/doors.ts';
import { insertOAuthState, spendOAuthState } from '../../db/repositories/oauth-states.ts';
import { randomSecret, sha256Hex } from '../../lib/secrets.ts';

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
  await insertOAuthState(tx, {
    state_hash: sha256Hex(state),
    provider,
    code_verifier: codeVerifier,
    signup_role: signupRole,
    created_at: now,
    expires_at: new Date(now.getTime() + OAUTH_STATE_LIFETIME_MS),
  });
  return { state, codeVerifier };
}

/** Uses a state once: unknown, expired or used states give undefined. */
export function consumeOAuthState(tx: Tx, state: string, now: Date) {
  return spendOAuthState(tx, sha256Hex(state), now);
}
