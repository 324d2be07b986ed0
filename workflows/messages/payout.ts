// The payout workflow's messages (workflows/payout.ts): its id, input and outcome, and the signals
// the payment events send it. Dependency-free.
import { defineSignal } from '@temporalio/workflow';

export const payoutWorkflowId = (paymentId: string): string => `payout:${paymentId}`;

export interface PayoutInput {
  readonly paymentId: string;
  /**
   * A payout of this payment the provider reported failed while no payout workflow was running
   * (a `payout.failed` after `payout.paid`): this run starts from that failure, alerting the
   * admins and waiting its backoff before the next attempt.
   */
  readonly failedPayoutId?: string;
}

/**
 * `unsettled`: the payout was sent but neither its event nor the provider settled it within the
 * days the workflow waits (workflows/payout.ts); the payment stays processing.
 */
export type PayoutOutcome = 'paid' | 'gave_up' | 'account_not_ready' | 'unsettled';

export interface PayoutSettlement {
  readonly payoutId: string;
  readonly outcome: 'paid' | 'failed';
}

/** Sent by the payment webhook's follow-up when a payout event arrives. */
export const payoutSettledSignal = defineSignal<[PayoutSettlement]>('payoutSettled');
/** Sent when the tester's payout account becomes able to receive payouts. */
export const payoutAccountReadySignal = defineSignal<[]>('payoutAccountReady');
