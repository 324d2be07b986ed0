import { WorkflowUpdateFailedError } from '@temporalio/client';
import { asUser } from '../../db/doors.ts';
import { taskOrdersOf } from '../../db/repositories/task-attempts.ts';
import { conflict, forbidden, invalid } from '../../lib/errors.ts';
import { failureOfType, INVALID_TASK_TIME } from '../../lib/failures.ts';
import { recordTaskProgressUpdate, type SessionState } from '../../workflows/messages/session.ts';
import type { CommandContext } from '../context.ts';
import type { Principal } from '../principal.ts';
import type { TaskProgressInput } from './session.schema.ts';
import { updateSessionWorkflow, visibleSession } from './session-workflow.ts';

/**
 * How far the extension's clock may be from the server's: a task time this close to the session's
 * start or to now is taken as given (clamped into the session), further is refused.
 */
export const TASK_CLOCK_TOLERANCE_MS = 5 * 60_000;

/**
 * The tester began, did or gave up on one of the study's tasks (PATCH /api/sessions/:id with
 * `task`). What the records say is checked first (the session is active, the study has the task,
 * the time falls within the session); the session workflow then judges the attempt itself (one
 * task at a time, once each, ended after it began) and records it.
 */
export async function recordTaskProgress(
  deps: CommandContext,
  principal: Principal,
  id: string,
  task: TaskProgressInput,
): Promise<SessionState> {
  const session = await visibleSession(deps.db, principal, id);
  // The tester's own report: nobody else, an admin or the organization included, speaks for them.
  if (principal.claims.sub !== session.tester_id) {
    throw forbidden("Only the session's tester reports progress on its tasks");
  }
  if (session.status !== 'active') {
    throw conflict(`Session must be active to record task progress (it is ${session.status})`);
  }
  const orders = await asUser(deps.db, principal.claims, (tx) => taskOrdersOf(tx, session.study_id));
  if (!orders.includes(task.order)) {
    throw invalid(`task.order: The study has no task ${task.order} (its tasks are ${orders.join(', ')})`);
  }
  const now = deps.now().getTime();
  const started = session.started_at.getTime();
  const given = task.at ? Date.parse(task.at) : now;
  if (given < started - TASK_CLOCK_TOLERANCE_MS) {
    throw invalid('task.at: Must not be before the session started (by more than 5 minutes)');
  }
  if (given > now + TASK_CLOCK_TOLERANCE_MS) {
    throw invalid('task.at: Must not be in the future (by more than 5 minutes)');
  }
  const at = new Date(Math.min(now, Math.max(started, given))).toISOString();
  try {
    return await updateSessionWorkflow(deps, principal, id, (handle) =>
      handle.executeUpdate(recordTaskProgressUpdate, {
        args: [
          {
            order: task.order,
            state: task.state,
            at,
            ...(task.ease !== undefined ? { ease: task.ease } : {}),
            ...(task.reason !== undefined ? { reason: task.reason } : {}),
          },
        ],
      }),
    );
  } catch (error) {
    const impossible = error instanceof WorkflowUpdateFailedError && failureOfType(error, INVALID_TASK_TIME);
    throw impossible ? invalid(impossible.message) : error;
  }
}
