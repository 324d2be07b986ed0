import { WorkflowUpdateFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { ensureSessionWorkflow as startSessionWorkflowOnce } from '../../activities/sessions/session-workflow-start.ts';
import type { Db } from '../../db/connection.ts';
import { asUser } from '../../db/doors.ts';
import { isStartableSessionStatus, type StartableSessionStatus } from '../../db/repositories/lifecycle.ts';
import { findSession, workflowStartOf, type SessionRow } from '../../db/repositories/sessions.ts';
import { INVALID_SESSION_TRANSITION, sessionWorkflowId } from '../../workflows/session.ts';
import type { Principal } from '../auth/principal.ts';
import { conflict, notFound } from '../http/errors.ts';

export interface SessionWorkflowDependencies {
  readonly db: Db;
  readonly temporal: Client;
  readonly taskQueue: string;
}

export interface SessionWorkflowStart {
  readonly sessionId: string;
  readonly jobId: string;
  readonly startedAt: Date;
  readonly maxDurationMinutes: number;
  /** Where the session stands: active when it is created; paused when a paused one is repaired. */
  readonly status?: StartableSessionStatus;
}

/** The session as the caller may see it (row-level security decides), or 404. */
export async function visibleSession(db: Db, principal: Principal, id: string): Promise<SessionRow> {
  const session = await asUser(db, principal.claims, (tx) => findSession(tx, id));
  if (!session) throw notFound('Session');
  return session;
}

/**
 * Starts the session's workflow unless it runs already. A finished one (a confirmed session's
 * life is over) is not started again. Safe to call as often as needed: the workflow id decides.
 */
export function startSessionWorkflow(
  { temporal, taskQueue }: Pick<SessionWorkflowDependencies, 'temporal' | 'taskQueue'>,
  start: SessionWorkflowStart,
): Promise<void> {
  return startSessionWorkflowOnce(temporal, taskQueue, {
    id: start.sessionId,
    study_id: start.jobId,
    status: start.status ?? 'active',
    started_at: start.startedAt,
    max_duration_minutes: start.maxDurationMinutes,
  });
}

/**
 * Starts the workflow of an active or paused session that has none: its row was committed but
 * the start that follows the commit failed. Every later status is reached through the workflow,
 * so any other is left alone. Returns whether it started one.
 */
export async function ensureSessionWorkflow(
  deps: SessionWorkflowDependencies,
  principal: Principal,
  sessionId: string,
): Promise<boolean> {
  const row = await asUser(deps.db, principal.claims, (tx) => workflowStartOf(tx, sessionId));
  if (!row || !isStartableSessionStatus(row.status)) return false;
  await startSessionWorkflow(deps, {
    sessionId: row.id,
    jobId: row.study_id,
    startedAt: row.started_at,
    maxDurationMinutes: row.max_duration_minutes,
    status: row.status,
  });
  return true;
}

/**
 * Sends an update to the session's workflow. A workflow that was never started is started and the
 * update sent again; a transition the workflow refuses (the state moved since the route read it)
 * becomes the same 409 the route would have given.
 */
export async function updateSessionWorkflow<T>(
  deps: SessionWorkflowDependencies,
  principal: Principal,
  sessionId: string,
  send: (handle: WorkflowHandle) => Promise<T>,
): Promise<T> {
  const handle = () => deps.temporal.workflow.getHandle(sessionWorkflowId(sessionId));
  try {
    try {
      return await send(handle());
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
      if (!(await ensureSessionWorkflow(deps, principal, sessionId))) throw error;
      return await send(handle());
    }
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
