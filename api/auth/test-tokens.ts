import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { sessionOfTestToken } from '../../db/repositories/test-tokens.ts';
import type { TestTokenPrincipal } from '../../commands/principal.ts';
import { sha256Hex } from '../../lib/secrets.ts';

export const TEST_TOKEN_HEADER = 'X-Test-Token';
const TEST_TOKEN_FORMAT = /^[0-9a-f]{48}$/;

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
