import { WorkflowUpdateFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../../db/connection.ts';
import { asUser } from '../../db/doors.ts';
import { findSession, type SessionRow } from '../../db/repositories/sessions.ts';
import { INVALID_SESSION_TRANSITION, sessionWorkflowId } from '../../workflows/session.ts';
import type { Principal } from '../auth/principal.ts';
import { conflict, notFound } from '../http/errors.ts';

/** The session as the caller may see it (row-level security decides), or 404. */
export async function visibleSession(db: Db, principal: Principal, id: string): Promise<SessionRow> {
  const session = await asUser(db, principal.claims, (tx) => findSession(tx, id));
  if (!session) throw notFound('Session');
  return session;
}

/**
 * Sends an update to the session's workflow; a transition the workflow refuses (the state moved
 * since the route read it) becomes the same 409 the route would have given.
 */
export async function updateSessionWorkflow<T>(
  temporal: Client,
  sessionId: string,
  send: (handle: WorkflowHandle) => Promise<T>,
): Promise<T> {
  try {
    return await send(temporal.workflow.getHandle(sessionWorkflowId(sessionId)));
  } catch (error) {
    if (
      error instanceof WorkflowUpdateFailedError &&
      error.cause instanceof ApplicationFailure &&
      error.cause.type === INVALID_SESSION_TRANSITION
    ) {
      throw conflict(error.cause.message);
    }
    throw error;
  }
}
