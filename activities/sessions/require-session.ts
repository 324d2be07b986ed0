import { ApplicationFailure } from '@temporalio/common';
import type { Tx } from '../../db/doors.ts';
import { findSession, type SessionRow } from '../../db/repositories/sessions.ts';
import { SESSION_STATE_ERROR } from '../../lib/failures.ts';

/** Named so workers never retry it: the session is not where the activity expects it. */

export async function requireSession(tx: Tx, sessionId: string): Promise<SessionRow> {
  const session = await findSession(tx, sessionId);
  if (!session) throw ApplicationFailure.nonRetryable(`Session ${sessionId} not found`, SESSION_STATE_ERROR);
  return session;
}
