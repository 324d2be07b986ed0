import type { Tx } from '../../db/doors.ts';
import { lockLoginFailures, updateLoginFailures } from '../../db/repositories/login-failures.ts';

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
  const previous = await lockLoginFailures(tx, email, now);
  if (previous.locked_until && previous.locked_until > now) {
    const lockedSeconds = Math.ceil((previous.locked_until.getTime() - now.getTime()) / 1000);
    return { reserved: false, lockedSeconds };
  }
  const remembered = now.getTime() - previous.last_failure_at.getTime() < FAILURE_MEMORY_MS;
  const failures = (remembered ? previous.failure_count : 0) + 1;
  const lockMs = lockDurationMs(failures);
  await updateLoginFailures(tx, email, {
    failure_count: failures,
    last_failure_at: now,
    locked_until: lockMs ? new Date(now.getTime() + lockMs) : null,
  });
  return { reserved: true };
}
