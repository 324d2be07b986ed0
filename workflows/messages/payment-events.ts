// The payment event workflow's id and input (workflows/payment-events.ts): what the webhook hands
// it once a provider event's database effects are committed. Dependency-free.
import type { PayoutSettlement } from './payout.ts';

/** What remains to be done once a payment event's database effects are committed. */
export type PaymentFollowUp =
  | { readonly kind: 'study_paid'; readonly studyId: string }
  | { readonly kind: 'payout_settled'; readonly paymentId: string; readonly settlement: PayoutSettlement }
  | { readonly kind: 'payout_account_ready'; readonly testerId: string };

export interface PaymentEventInput {
  readonly eventId: string;
  readonly followUp: PaymentFollowUp;
}

/** One per provider event: a repeated delivery finds it started and adds nothing. */
export const paymentEventWorkflowId = (eventId: string): string => `payment-event:${eventId}`;
