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

/** Seconds until the email may try again, or 0 when it is not locked. */
export async function lockedForSeconds(tx: Tx, email: string, now: Date): Promise<number> {
  const row = await tx
    .selectFrom('login_failures')
    .select('locked_until')
    .where('email', '=', email)
    .executeTakeFirst();
  if (!row?.locked_until || row.locked_until <= now) return 0;
  return Math.ceil((row.locked_until.getTime() - now.getTime()) / 1000);
}

export async function recordLoginFailure(tx: Tx, email: string, now: Date): Promise<void> {
  const previous = await tx
    .selectFrom('login_failures')
    .select(['failure_count', 'last_failure_at'])
    .where('email', '=', email)
    .forUpdate()
    .executeTakeFirst();
  const remembered = previous && now.getTime() - previous.last_failure_at.getTime() < FAILURE_MEMORY_MS;
  const failures = (remembered ? previous.failure_count : 0) + 1;
  const lockMs = lockDurationMs(failures);
  const row = {
    failure_count: failures,
    last_failure_at: now,
    locked_until: lockMs ? new Date(now.getTime() + lockMs) : null,
  };
  await tx
    .insertInto('login_failures')
    .values({ email, ...row })
    .onConflict((oc) => oc.column('email').doUpdateSet(row))
    .execute();
}

export async function clearLoginFailures(tx: Tx, email: string): Promise<void> {
  await tx.deleteFrom('login_failures').where('email', '=', email).execute();
}
