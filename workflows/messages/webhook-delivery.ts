// The outgoing webhook delivery workflow's id and input (workflows/webhook-delivery.ts). Dependency-free.

export interface WebhookDeliveryWorkflowInput {
  /** The webhook_deliveries row to send. */
  readonly deliveryId: string;
}

export const webhookDeliveryWorkflowId = (deliveryId: string): string => `webhook-delivery:${deliveryId}`;

/** What a delivery came to. `closed`: it was no longer pending (delivered or closed before). */
export type WebhookDeliveryOutcome = 'delivered' | 'failed' | 'cancelled' | 'closed';
