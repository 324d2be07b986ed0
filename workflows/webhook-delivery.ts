import { proxyActivities, sleep } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks/delivery-activities.ts';
import { nextWebhookAttemptDelayMs } from '../lib/webhook-schedule.ts';
import type { WebhookDeliveryOutcome, WebhookDeliveryWorkflowInput } from './messages/webhook-delivery.ts';
import { deliverAll } from './notification.ts';

// An attempt answers within its own 10 s timeout; the activity's retries are for our side (the
// database), never for the receiver, whose failures the schedule below spaces out.
const { attemptWebhookDelivery, giveUpWebhookDelivery } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/**
 * Sends one event to one endpoint (id `webhook-delivery:<deliveryId>`): attempts until a 2xx, its
 * endpoint is disabled or changes its events, or three days of backoff run out
 * (lib/webhook-schedule.ts). The last of those disables an endpoint that took nothing in that
 * time and emails the organization's owners.
 */
export async function webhookDeliveryWorkflow({
  deliveryId,
}: WebhookDeliveryWorkflowInput): Promise<WebhookDeliveryOutcome> {
  const firstAttemptAt = Date.now();
  for (let attempt = 1; ; attempt++) {
    const nextDelayMs = nextWebhookAttemptDelayMs(attempt, Date.now() - firstAttemptAt);
    const outcome = await attemptWebhookDelivery({ deliveryId, nextDelayMs });
    if (outcome !== 'failed') return outcome;
    if (nextDelayMs === null) break;
    await sleep(nextDelayMs);
  }
  const notices = await giveUpWebhookDelivery({ deliveryId });
  await deliverAll(notices);
  return 'failed';
}
