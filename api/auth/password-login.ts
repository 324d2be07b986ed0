import { asSystem } from '../../db/doors.ts';
import { ApiError, unauthenticated } from '../http/errors.ts';
import { normalizeEmail, type AccountView } from './accounts.ts';
import { findAccountByEmail } from './accounts.ts';
import type { AuthDependencies } from './dependencies.ts';
import { clearLoginFailures, lockedForSeconds, recordLoginFailure } from './login-lockout.ts';
import { decoyHash, verifyPassword } from './password-hash.ts';

/** One message for an unknown email, a wrong password and an account without a password. */
export const INVALID_CREDENTIALS = 'Invalid email or password';

/**
 * Checks an email and password. The hash is always verified (against a decoy when there is no
 * account), and failures count per submitted email whether or not it exists, so neither the
 * answer, its timing nor the lockout tells an attacker which emails have accounts.
 */
export async function checkPassword(
  deps: AuthDependencies,
  rawEmail: string,
  password: string,
): Promise<AccountView> {
  const email = normalizeEmail(rawEmail);
  const { locked, account } = await asSystem(deps.db, async (tx) => ({
    locked: await lockedForSeconds(tx, email, deps.now()),
    account: await findAccountByEmail(tx, email),
  }));
  if (locked > 0) {
    throw new ApiError('rate_limited', 'Too many failed login attempts; try again later', {
      'Retry-After': String(locked),
    });
  }
  const matches = await verifyPassword(password, account?.passwordHash ?? (await decoyHash()));
  if (!account?.passwordHash || !matches) {
    await asSystem(deps.db, (tx) => recordLoginFailure(tx, email, deps.now()));
    throw unauthenticated(INVALID_CREDENTIALS);
  }
  await asSystem(deps.db, (tx) => clearLoginFailures(tx, email));
  return account;
}
