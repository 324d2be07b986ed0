import type { Tx } from '../doors.ts';

// Identities at OAuth providers (0011): a provider's subject names one user.

export function findIdentity(
  tx: Tx,
  provider: string,
  subject: string,
): Promise<{ id: string; user_id: string } | undefined> {
  return tx
    .selectFrom('user_identities')
    .select(['id', 'user_id'])
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

/** The email the provider now shares for the identity. */
export async function updateIdentityEmail(tx: Tx, id: string, email: string | null, at: Date): Promise<void> {
  await tx.updateTable('user_identities').set({ email, updated_at: at }).where('id', '=', id).execute();
}

export async function insertIdentity(
  tx: Tx,
  identity: { userId: string; provider: string; subject: string; email: string | null },
): Promise<void> {
  await tx
    .insertInto('user_identities')
    .values({
      user_id: identity.userId,
      provider: identity.provider,
      subject: identity.subject,
      email: identity.email,
    })
    .execute();
}
