import type { Insertable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { OAuthStatesTable } from '../schema-auth.ts';

// OAuth sign-in attempts in progress (0011): a state is found by its SHA-256; the caller hashes.

export async function insertOAuthState(tx: Tx, state: Insertable<OAuthStatesTable>): Promise<void> {
  await tx.insertInto('oauth_states').values(state).execute();
}

/** Uses a state once: unknown, expired or used states give undefined. */
export function spendOAuthState(tx: Tx, stateHash: string, now: Date) {
  return tx
    .updateTable('oauth_states')
    .set({ used_at: now })
    .where('state_hash', '=', stateHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['provider', 'code_verifier', 'signup_role'])
    .executeTakeFirst();
}
