import { proxyActivities, sleep } from '@temporalio/workflow';
import type { LocalProviderActivities } from '../activities/payments/local-provider-activities.ts';
import type { LocalProviderEventInput } from './messages/local-payment-provider.ts';

// Like the provider's own deliveries: retried with backoff until the webhook route answers 200,
// for up to three days.
const { deliverLocalProviderEvent } = proxyActivities<LocalProviderActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '3 days',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

/** The local payment provider's later event (a payout settling): waits, then posts it signed. */
export async function localProviderEventWorkflow({
  event,
  delaySeconds,
}: LocalProviderEventInput): Promise<void> {
  await sleep(delaySeconds * 1000);
  await deliverLocalProviderEvent({ event });
}
