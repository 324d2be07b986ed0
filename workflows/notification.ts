import {
  ActivityFailure,
  type ChildWorkflowHandle,
  ParentClosePolicy,
  proxyActivities,
  startChild,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { NotificationActivities } from '../activities/notify/notification-activities.ts';
import { notificationWorkflowId, type NotificationWorkflowInput } from './messages/notification.ts';

/** Retries with backoff for up to 12 hours: a test token is worth delivering for most of its 24. */
const { deliverNotification } = proxyActivities<NotificationActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '12 hours',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '30 minutes' },
});
const { giveUpNotification } = proxyActivities<NotificationActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});

/**
 * Delivers one queued message outside the request that queued it: the API commits the outbox
 * row, starts this workflow (id `notification:<id>`, so a repeated start is harmless) and
 * answers; the activity retries the channel until it accepts, refuses for good, or time runs out,
 * and the outcome is recorded on the row.
 */
export async function notificationWorkflow({ notificationId }: NotificationWorkflowInput): Promise<string> {
  try {
    return await deliverNotification({ notificationId });
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    const reason = error.cause?.message ?? error.message;
    await giveUpNotification({ notificationId, reason });
    return 'failed';
  }
}

/**
 * From another workflow: hands a queued message to its delivery workflow, which may outlive the
 * caller; a message already handed over (a repeated start) is left to its workflow (undefined).
 */
export async function startDelivery(
  notificationId: string,
): Promise<ChildWorkflowHandle<typeof notificationWorkflow> | undefined> {
  try {
    return await startChild(notificationWorkflow, {
      workflowId: notificationWorkflowId(notificationId),
      args: [{ notificationId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    return undefined;
  }
}

/**
 * Hands each queued message to its delivery workflow and resolves once every one has delivered or
 * given up (never failing): a caller that awaits it before it ends leaves no message behind.
 */
export async function deliverAll(notificationIds: readonly (string | null)[]): Promise<void> {
  const results: Promise<unknown>[] = [];
  for (const id of notificationIds) {
    const child = id ? await startDelivery(id) : undefined;
    if (child) results.push(child.result().catch(() => undefined));
  }
  await Promise.all(results);
}
