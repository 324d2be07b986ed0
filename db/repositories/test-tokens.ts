import { sql } from 'kysely';
import type { Tx } from '../doors.ts';
import type { SessionStatus, TesterStatus } from '../../lib/domain.ts';

// Sessions' test tokens (sessions.test_token_hash, test_token_expires_at): only the SHA-256 of a
// token is stored, and the caller hashes.

/** Stores the session's new token, replacing any earlier one; false when the session does not exist. */
export async function setTestToken(
  tx: Tx,
  sessionId: string,
  tokenHash: string,
  expiresAt: Date,
): Promise<boolean> {
  const updated = await sql`
    update sessions set test_token_hash = ${tokenHash}, test_token_expires_at = ${expiresAt}
    where id = ${sessionId}`.execute(tx);
  return Boolean(updated.numAffectedRows);
}

/**
 * The session a token is bound to, while it is unexpired, the session not cancelled and its
 * tester not suspended.
 */
export async function sessionOfTestToken(
  tx: Tx,
  tokenHash: string,
  now: Date,
): Promise<{ id: string; tester_id: string } | undefined> {
  const { rows } = await sql<{ id: string; tester_id: string }>`
      select s.id, s.tester_id from sessions s join users u on u.id = s.tester_id
      where s.test_token_hash = ${tokenHash} and s.test_token_expires_at > ${now}
        and s.status <> 'cancelled' and u.status <> 'suspended'`.execute(tx);
  return rows[0];
}

/** The session's tester and token expiry, when `tokenHash` is still the session's current token. */
export function sessionHoldingTestToken(
  tx: Tx,
  sessionId: string,
  tokenHash: string,
): Promise<{ tester_id: string; test_token_expires_at: Date | null } | undefined> {
  return tx
    .selectFrom('sessions')
    .select(['tester_id', 'test_token_expires_at'])
    .where('id', '=', sessionId)
    .where('test_token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** The session's status and its tester's, the session locked until the transaction ends. */
export function lockSessionForTestToken(
  tx: Tx,
  sessionId: string,
): Promise<{ tester_id: string; status: SessionStatus; tester_status: TesterStatus } | undefined> {
  return tx
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.tester_id')
    .select(['sessions.tester_id', 'sessions.status', 'users.status as tester_status'])
    .where('sessions.id', '=', sessionId)
    .forUpdate('sessions')
    .executeTakeFirst();
}
