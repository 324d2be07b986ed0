import type { Tx } from '../../db/doors.ts';
import { findIdentity, insertIdentity, updateIdentityEmail } from '../../db/repositories/user-identities.ts';
import { setDisplayName } from '../../db/repositories/users.ts';
import { forbidden } from '../../lib/errors.ts';
import { createAccount, findAccountByEmail, findAccountById, type AccountView } from './accounts.ts';
import type { ProviderProfile } from './oauth-client.ts';

/**
 * The account behind a provider identity, created or updated. A known identity signs in its
 * user; a new one is linked to the account with the same email only when the provider vouches
 * for that email (otherwise anyone could claim an account by typing its address at a provider);
 * failing both, a new account is created.
 */
export async function upsertOAuthAccount(
  tx: Tx,
  provider: string,
  profile: ProviderProfile,
  signupRole: 'business' | 'tester',
  now: Date,
): Promise<AccountView> {
  const identity = await findIdentity(tx, provider, profile.subject);
  if (identity) {
    await updateIdentityEmail(tx, identity.id, profile.email, now);
    if (profile.name) await setDisplayName(tx, identity.user_id, profile.name);
    return (await findAccountById(tx, identity.user_id))!;
  }
  if (!profile.email || !profile.emailVerified) {
    throw forbidden('The identity provider did not share a verified email address');
  }
  const account =
    (await findAccountByEmail(tx, profile.email)) ??
    (await createAccount(tx, {
      email: profile.email,
      role: signupRole,
      displayName: profile.name,
      passwordHash: null,
    }));
  await insertIdentity(tx, { userId: account.id, provider, subject: profile.subject, email: profile.email });
  return account;
}
