import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { condition, ParentClosePolicy, proxyActivities, setHandler, startChild } from '@temporalio/workflow';
import type { GamificationActivities } from '../activities/gamification/gamification-activities.ts';
import { gamificationWorkflowId, sessionRatedSignal } from './messages/gamification.ts';
import { deliverAll } from './notification.ts';

/** How long a confirmed session waits for the organization's rating before it is evaluated without one. */
export const RATING_WAIT = '7 days';

const { evaluateRatedSession } = proxyActivities<GamificationActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});

/**
 * Points, level and badges for one confirmed session, without anyone asking (id
 * `gamification:<sessionId>`, started by the session's workflow): evaluated once the organization
 * rates it, or after RATING_WAIT without a rating; a level-up's message is delivered.
 */
export async function gamificationWorkflow({ sessionId }: { sessionId: string }): Promise<void> {
  let rated = false;
  setHandler(sessionRatedSignal, () => {
    rated = true;
  });
  await condition(() => rated, RATING_WAIT);
  await deliverAll([await evaluateRatedSession({ sessionId })]);
}

/**
 * The session's evaluation, as a child that outlives it; one already started (the rating came
 * first, through the API) or finished is left as it is.
 */
export async function startGamificationChild(sessionId: string): Promise<void> {
  try {
    await startChild(gamificationWorkflow, {
      workflowId: gamificationWorkflowId(sessionId),
      args: [{ sessionId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
