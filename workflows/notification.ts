import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { NotificationActivities } from '../activities/notify/notification-activities.ts';

export interface NotificationWorkflowInput {
  /** The notification_outbox row to deliver. */
  readonly notificationId: string;
}

export const notificationWorkflowId = (notificationId: string): string => `notification:${notificationId}`;

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
