// The notification workflow's id and input (workflows/notification.ts). Dependency-free.

export interface NotificationWorkflowInput {
  /** The notification_outbox row to deliver. */
  readonly notificationId: string;
}

export const notificationWorkflowId = (notificationId: string): string => `notification:${notificationId}`;
