import { proxyActivities, sleep } from '@temporalio/workflow';
import type { LocalProviderActivities } from '../activities/payments/local-provider-activities.ts';
import type { ProviderEvent } from '../clients/payments/provider-events.ts';

export interface LocalProviderEventInput {
  readonly event: ProviderEvent;
  /** How long the local provider takes before the event happens (a payout's arrival). */
  readonly delaySeconds: number;
}

export const localProviderEventWorkflowId = (eventId: string): string => `local-provider-event:${eventId}`;

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
