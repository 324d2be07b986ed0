import { asSystem } from '../../db/doors.ts';
import { clearLoginFailures } from '../../db/repositories/login-failures.ts';
import { ApiError, unauthenticated } from '../../lib/errors.ts';
import { normalizeEmail, type AccountView } from './accounts.ts';
import { findAccountByEmail } from './accounts.ts';
import type { AuthDependencies } from './dependencies.ts';
import { reserveLoginAttempt } from './login-lockout.ts';
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
  const now = deps.now();
  const { attempt, account } = await asSystem(deps.db, async (tx) => ({
    attempt: await reserveLoginAttempt(tx, email, now),
    account: await findAccountByEmail(tx, email),
  }));
  if (!attempt.reserved) {
    throw new ApiError('rate_limited', 'Too many failed login attempts; try again later', {
      'Retry-After': String(attempt.lockedSeconds),
    });
  }
  // The attempt already counts as a failure; only a match takes it back.
  const matches = await verifyPassword(password, account?.passwordHash ?? (await decoyHash()));
  if (!account?.passwordHash || !matches) throw unauthenticated(INVALID_CREDENTIALS);
  await asSystem(deps.db, (tx) => clearLoginFailures(tx, email));
  return account;
}
