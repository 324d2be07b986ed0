import type { Selectable, Updateable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { LoginFailuresTable } from '../schema-auth.ts';

// Failed password logins per email (0011), for the lockout; the caller does the arithmetic.

export type LoginFailureRow = Selectable<LoginFailuresTable>;

/**
 * The email's failure count, locked until the transaction ends (a row with no failures is created
 * first), so parallel attempts on one email are admitted one by one.
 */
export async function lockLoginFailures(
  tx: Tx,
  email: string,
  now: Date,
): Promise<Pick<LoginFailureRow, 'failure_count' | 'last_failure_at' | 'locked_until'>> {
  await tx
    .insertInto('login_failures')
    .values({ email, failure_count: 0, last_failure_at: now, locked_until: null })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  return tx
    .selectFrom('login_failures')
    .select(['failure_count', 'last_failure_at', 'locked_until'])
    .where('email', '=', email)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function updateLoginFailures(
  tx: Tx,
  email: string,
  change: Updateable<LoginFailuresTable>,
): Promise<void> {
  await tx.updateTable('login_failures').set(change).where('email', '=', email).execute();
}

/** A successful login (or password reset) starts the count again. */
export async function clearLoginFailures(tx: Tx, email: string): Promise<void> {
  await tx.deleteFrom('login_failures').where('email', '=', email).execute();
}
