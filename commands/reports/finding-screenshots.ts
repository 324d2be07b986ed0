import { findingScreenshotsWorkflow } from '../../workflows/finding-screenshots.ts';
import { findingScreenshotsWorkflowId } from '../../workflows/messages/finding-screenshots.ts';
import { serviceTaskQueue, type CommandContext } from '../context.ts';

/**
 * Starts the pictures of a session's reported findings, once a report is asked for with
 * `includeScreenshots` (the caller's access to the session is checked before). One workflow per
 * session at a time; asked again later, it pictures only the findings still without one.
 */
export async function requestFindingScreenshots(
  deps: Pick<CommandContext, 'temporal' | 'config'>,
  sessionId: string,
): Promise<void> {
  await deps.temporal.workflow.start(findingScreenshotsWorkflow, {
    taskQueue: serviceTaskQueue(deps),
    workflowId: findingScreenshotsWorkflowId(sessionId),
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [{ sessionId, captureQueue: deps.config.audits.taskQueue }],
  });
}
