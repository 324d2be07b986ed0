import type { SessionRow } from '../../db/repositories/sessions.ts';
import type { Principal } from '../principal.ts';

const LIVE = new Set<SessionRow['status']>(['active', 'paused']);

/**
 * Who reads Agent 1's insights on a session (GET /api/sessions/:id, GET /api/ai/:analysisJobId).
 * They are the live test's analysis and name moments and elements that Agent 2's findings name
 * too, findings the tester may reject: so everyone who sees the session reads them while it is
 * active or paused; once it has ended only its tester does, until confirming (admins are kept out
 * as they are from undecided findings); once confirmed, nobody, since what passed the gate is the
 * report. Row-level security holds the same rule for the organization and the tester (0026).
 */
export function insightsVisible(
  principal: Principal,
  session: Pick<SessionRow, 'status' | 'tester_id'>,
): boolean {
  if (LIVE.has(session.status)) return true;
  return session.status !== 'confirmed' && session.tester_id === principal.claims.sub;
}
