import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { RecordedSession } from '../../db/repositories/lifecycle.ts';
import { sessionWorkflow, sessionWorkflowId } from '../../workflows/session.ts';

/**
 * Starts the session's workflow unless it runs already, from what the row records: its status
 * (active, or paused), its start (the time limit counts from there) and its study's limit. A
 * finished one (a confirmed session's life is over) is not started again. Safe to call as often
 * as needed: the workflow id decides.
 */
export async function ensureSessionWorkflow(
  client: Client,
  taskQueue: string,
  session: RecordedSession,
): Promise<void> {
  try {
    await client.workflow.start(sessionWorkflow, {
      workflowId: sessionWorkflowId(session.id),
      taskQueue,
      args: [
        {
          sessionId: session.id,
          jobId: session.study_id,
          startedAt: session.started_at.toISOString(),
          maxDurationMinutes: session.max_duration_minutes,
          status: session.status,
        },
      ],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
