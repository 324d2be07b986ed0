// The local payment provider's event workflow: its id and input (workflows/local-payment-provider.ts).
// Dependency-free at run time; the event's shape is the provider client's (a type only).
import type { ProviderEvent } from '../../clients/payments/provider-events.ts';

export interface LocalProviderEventInput {
  readonly event: ProviderEvent;
  /** How long the local provider takes before the event happens (a payout's arrival). */
  readonly delaySeconds: number;
}

export const localProviderEventWorkflowId = (eventId: string): string => `local-provider-event:${eventId}`;
