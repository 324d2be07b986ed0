import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { asSystem, type Tx } from '../../db/doors.ts';
import type { TestTokenPrincipal } from './principal.ts';
import { sha256Hex } from './secrets.ts';

export const TEST_TOKEN_HEADER = 'X-Test-Token';
export const TEST_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;
const TEST_TOKEN_FORMAT = /^[0-9a-f]{48}$/;

/**
 * Issues the test token of a session (48 hex characters, 192 bits from the CSPRNG), replacing
 * any earlier one; only its SHA-256 is stored. Call inside the transaction that creates or
 * re-issues the session.
 */
export async function issueTestToken(
  tx: Tx,
  sessionId: string,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(24).toString('hex');
  const expiresAt = new Date(now.getTime() + TEST_TOKEN_LIFETIME_MS);
  const updated = await sql`
    update sessions set test_token_hash = ${sha256Hex(token)}, test_token_expires_at = ${expiresAt}
    where id = ${sessionId}`.execute(tx);
  if (!updated.numAffectedRows) throw new Error(`session ${sessionId} not found`);
  return { token, expiresAt };
}

/** Whether the value could be a test token at all; anything else is refused without a lookup. */
export const isTestTokenShaped = (token: string): boolean => TEST_TOKEN_FORMAT.test(token);

/**
 * The session a test token is bound to, while it is unexpired, the session not cancelled and its
 * tester not suspended (a suspended account does nothing, whatever credential it holds).
 */
export async function verifyTestToken(db: Db, token: string, now: Date): Promise<TestTokenPrincipal | null> {
  if (!isTestTokenShaped(token)) return null;
  const { rows } = await asSystem(db, (tx) =>
    sql<{ id: string; tester_id: string }>`
      select s.id, s.tester_id from sessions s join users u on u.id = s.tester_id
      where s.test_token_hash = ${sha256Hex(token)} and s.test_token_expires_at > ${now}
        and s.status <> 'cancelled' and u.status <> 'suspended'`.execute(tx),
  );
  const session = rows[0];
  if (!session) return null;
  return {
    kind: 'test_token',
    sessionId: session.id,
    claims: { sub: session.tester_id, role: 'tester', organization_id: null },
    organizationId: null,
    rateLimitKey: `test_token:${session.id}`,
  };
}
