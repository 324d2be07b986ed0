import type { Tx } from '../../db/doors.ts';

/** Failures allowed before the first lock. */
export const LOCKOUT_THRESHOLD = 5;
const MINUTE_MS = 60_000;
const MAX_LOCK_MS = 60 * MINUTE_MS;
/** A day without failures starts the count again. */
const FAILURE_MEMORY_MS = 24 * 60 * MINUTE_MS;

/** 1, 2, 4, ... minutes for each failure past the threshold, at most an hour. */
export function lockDurationMs(failures: number): number {
  if (failures < LOCKOUT_THRESHOLD) return 0;
  return Math.min(MINUTE_MS * 2 ** (failures - LOCKOUT_THRESHOLD), MAX_LOCK_MS);
}

export type LoginAttempt =
  { readonly reserved: true } | { readonly reserved: false; readonly lockedSeconds: number };

/**
 * Admits one password check for the email, or refuses it while the email is locked. The attempt
 * is counted as a failure before the password is verified, under the row's lock, so a parallel
 * burst is admitted one by one: once the threshold is reached, the lock is already set for every
 * later request, and no more than the threshold are ever verified. A success clears the count.
 */
export async function reserveLoginAttempt(tx: Tx, email: string, now: Date): Promise<LoginAttempt> {
  await tx
    .insertInto('login_failures')
    .values({ email, failure_count: 0, last_failure_at: now, locked_until: null })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  const previous = await tx
    .selectFrom('login_failures')
    .select(['failure_count', 'last_failure_at', 'locked_until'])
    .where('email', '=', email)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (previous.locked_until && previous.locked_until > now) {
    const lockedSeconds = Math.ceil((previous.locked_until.getTime() - now.getTime()) / 1000);
    return { reserved: false, lockedSeconds };
  }
  const remembered = now.getTime() - previous.last_failure_at.getTime() < FAILURE_MEMORY_MS;
  const failures = (remembered ? previous.failure_count : 0) + 1;
  const lockMs = lockDurationMs(failures);
  await tx
    .updateTable('login_failures')
    .set({
      failure_count: failures,
      last_failure_at: now,
      locked_until: lockMs ? new Date(now.getTime() + lockMs) : null,
    })
    .where('email', '=', email)
    .execute();
  return { reserved: true };
}

export async function clearLoginFailures(tx: Tx, email: string): Promise<void> {
  await tx.deleteFrom('login_failures').where('email', '=', email).execute();
}
