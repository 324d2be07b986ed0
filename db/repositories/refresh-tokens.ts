import type { Insertable, Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { RefreshTokensTable } from '../schema-auth.ts';

// Refresh tokens and their families (0011): a family is one login, a token one link of its chain.
// Tokens are found by the SHA-256 of their secret; the caller hashes.

export type RefreshTokenRow = Selectable<RefreshTokensTable>;
export type NewRefreshToken = Insertable<RefreshTokensTable>;

export async function insertRefreshToken(tx: Tx, token: NewRefreshToken): Promise<void> {
  await tx.insertInto('refresh_tokens').values(token).execute();
}

/** The token with this hash, locked until the transaction ends, so one rotation wins a race. */
export function lockRefreshToken(tx: Tx, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  return tx
    .selectFrom('refresh_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .forUpdate()
    .executeTakeFirst();
}

export async function markRefreshTokenRotated(tx: Tx, id: string, at: Date): Promise<void> {
  await tx.updateTable('refresh_tokens').set({ rotated_at: at }).where('id', '=', id).execute();
}

/** The family (login) of the token with this hash, if the token exists. */
export async function refreshFamilyOf(tx: Tx, tokenHash: string): Promise<string | undefined> {
  const token = await tx
    .selectFrom('refresh_tokens')
    .select('family_id')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return token?.family_id;
}

/** Ends a login: every token of the family not yet revoked is revoked now. */
export async function revokeRefreshFamily(tx: Tx, familyId: string, at: Date): Promise<void> {
  await tx
    .updateTable('refresh_tokens')
    .set({ revoked_at: at })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** After a password reset every existing login of the user ends; returns the logins it ended. */
export async function revokeAllRefreshTokens(tx: Tx, userId: string, at: Date): Promise<string[]> {
  const rows = await tx
    .updateTable('refresh_tokens')
    .set({ revoked_at: at })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returning('family_id')
    .execute();
  return [...new Set(rows.map((row) => row.family_id))];
}

/** Whether the login was ended (logout, reuse detection, password reset). */
export async function isFamilyRevoked(tx: Tx, familyId: string): Promise<boolean> {
  const row = await tx
    .selectFrom('refresh_tokens')
    .select('id')
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
