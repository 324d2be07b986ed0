import type { Db } from '../../db/connection.ts';
import { asSystem, type Tx } from '../../db/doors.ts';
import { sessionOfTestToken, setTestToken } from '../../db/repositories/test-tokens.ts';
import { mintTestToken } from '../../lib/test-token.ts';
import type { TestTokenPrincipal } from './principal.ts';
import { sha256Hex } from './secrets.ts';

export const TEST_TOKEN_HEADER = 'X-Test-Token';
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
  const { token, hash, expiresAt } = mintTestToken(now);
  const stored = await setTestToken(tx, sessionId, hash, expiresAt);
  if (!stored) throw new Error(`session ${sessionId} not found`);
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
  const session = await asSystem(db, (tx) => sessionOfTestToken(tx, sha256Hex(token), now));
  if (!session) return null;
  return {
    kind: 'test_token',
    sessionId: session.id,
    claims: { sub: session.tester_id, role: 'tester', organization_id: null },
    organizationId: null,
    rateLimitKey: `test_token:${session.id}`,
  };
}
