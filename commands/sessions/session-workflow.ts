import type { WorkflowHandle } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { ensureSessionWorkflow as startRecordedSession } from '../../clients/temporal.ts';
import type { Db } from '../../db/connection.ts';
import { asUser, type Tx } from '../../db/doors.ts';
import { startableSessionOf } from '../../db/repositories/lifecycle.ts';
import { findSession, type SessionRow } from '../../db/repositories/sessions.ts';
import { INVALID_SESSION_TRANSITION } from '../../lib/failures.ts';
import { sessionWorkflowId } from '../../workflows/messages/session.ts';
import type { Principal } from '../principal.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { updateOrConflict } from '../update-or-conflict.ts';
import { serviceTaskQueue, type CommandContext } from '../context.ts';

/** The session as the caller's transaction may see it (row-level security decides), or 404. */
export async function requireVisibleSession(tx: Tx, id: string): Promise<SessionRow> {
  const session = await findSession(tx, id);
  if (!session) throw notFound('Session');
  return session;
}

/** The session as the caller may see it (row-level security decides), or 404. */
export function visibleSession(db: Db, principal: Principal, id: string): Promise<SessionRow> {
  return asUser(db, principal.claims, (tx) => requireVisibleSession(tx, id));
}

/**
 * Starts the workflow of an active or paused session that has none: its row was committed but
 * the start that follows the commit failed. Every later status is reached through the workflow,
 * so any other is left alone. Returns whether it started one.
 */
export async function ensureSessionWorkflow(
  deps: CommandContext,
  principal: Principal,
  sessionId: string,
): Promise<boolean> {
  const session = await asUser(deps.db, principal.claims, (tx) => startableSessionOf(tx, sessionId));
  if (!session) return false;
  await startRecordedSession(deps.temporal, serviceTaskQueue(deps), session);
  return true;
}

/**
 * Sends an update to the session's workflow. A workflow that was never started is started and the
 * update sent again; a transition the workflow refuses (the state moved since the route read it)
 * becomes the same 409 the route would have given.
 */
export async function updateSessionWorkflow<T>(
  deps: CommandContext,
  principal: Principal,
  sessionId: string,
  send: (handle: WorkflowHandle) => Promise<T>,
): Promise<T> {
  const handle = () => deps.temporal.workflow.getHandle(sessionWorkflowId(sessionId));
  return updateOrConflict(INVALID_SESSION_TRANSITION, async () => {
    try {
      return await send(handle());
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
      if (!(await ensureSessionWorkflow(deps, principal, sessionId))) {
        // Its workflow ended since the route read it (the session was cancelled): 409, as then.
        const now = await visibleSession(deps.db, principal, sessionId);
        throw conflict(`Session is ${now.status}: it takes no more changes`);
      }
      return await send(handle());
    }
  });
}
