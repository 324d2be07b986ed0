import {
  condition,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  sleep,
  startChild,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { PaymentActivities } from '../activities/payments/payment-activities.ts';
import {
  payoutAccountReadySignal,
  payoutSettledSignal,
  payoutWorkflowId,
  type PayoutInput,
  type PayoutOutcome,
  type PayoutSettlement,
} from './messages/payout.ts';

/** Attempts one payout workflow makes before it gives up and leaves the payment to an admin. */
export const MAX_PAYOUT_ATTEMPTS = 5;
/** Wait before the next attempt after the n-th failure: 1 h, 2 h, 4 h, 8 h. */
export const payoutRetryDelayMs = (failures: number): number => 60 * 60 * 1000 * 2 ** (failures - 1);
/** How often a payout waiting for the tester's account checks again without being told. */
const ACCOUNT_RECHECK_MS = 24 * 60 * 60 * 1000;
/** After this many rechecks the workflow stops waiting; POST /api/billing/payout starts it again. */
const MAX_ACCOUNT_RECHECKS = 30;

const { preparePayout, recordPayoutRetry, alertAdminsOfFailedPayout } = proxyActivities<PaymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute', nonRetryableErrorTypes: ['PaymentNotFound'] },
});
// The heartbeat timeout is how soon a dead worker's attempt is retried (with the same keys).
const { sendPayout } = proxyActivities<PaymentActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: {
    initialInterval: '1 second',
    maximumInterval: '5 minutes',
    nonRetryableErrorTypes: ['PaymentNotFound'],
  },
});

/**
 * Pays one session's payment to its tester (id `payout:<paymentId>`). Each attempt moves money
 * with idempotency keys of its own; the provider's payout event settles it. A failed payout alerts
 * the admins and is tried again after a growing delay, up to MAX_PAYOUT_ATTEMPTS; a payout account
 * that cannot receive money yet is waited for. Attempts are numbered on from those recorded on the
 * payment, so a later workflow for the same payment never reuses an earlier attempt's keys, and a
 * payout still processing when the workflow starts is waited for instead of being made again.
 */
export async function payoutWorkflow({ paymentId, failedPayoutId }: PayoutInput): Promise<PayoutOutcome> {
  const settlements = new Map<string, PayoutSettlement['outcome']>();
  let accountReady = false;
  setHandler(payoutSettledSignal, ({ payoutId, outcome }) => {
    settlements.set(payoutId, outcome);
  });
  setHandler(payoutAccountReadySignal, () => {
    accountReady = true;
  });

  const prepared = await preparePayout({ paymentId });
  if (prepared.status === 'paid') return 'paid';
  let attempt = prepared.attempts;
  let failures = 0;
  let rechecks = 0;
  /** The payout whose settlement decides what comes next; none: the next attempt is due. */
  let pending: string | undefined;
  if (failedPayoutId) {
    settlements.set(failedPayoutId, 'failed');
    pending = failedPayoutId;
  } else if (prepared.status === 'processing' && prepared.payoutId) {
    pending = prepared.payoutId;
  }

  while (failures < MAX_PAYOUT_ATTEMPTS) {
    if (!pending) {
      const result = await sendPayout({ paymentId, attempt: attempt + 1 });
      if (result.outcome === 'paid') return 'paid';
      if (result.outcome === 'account_not_ready') {
        if (rechecks >= MAX_ACCOUNT_RECHECKS) return 'account_not_ready';
        rechecks += 1;
        accountReady = false;
        await condition(() => accountReady, ACCOUNT_RECHECK_MS);
        continue;
      }
      attempt += 1;
      if (result.outcome === 'sent') pending = result.payoutId;
    }
    if (pending) {
      const payoutId = pending;
      pending = undefined;
      await condition(() => settlements.has(payoutId));
      if (settlements.get(payoutId) === 'paid') return 'paid';
    }
    failures += 1;
    const delayMs = failures < MAX_PAYOUT_ATTEMPTS ? payoutRetryDelayMs(failures) : null;
    const { retryAt } = await recordPayoutRetry({ paymentId, delayMs });
    await alertAdminsOfFailedPayout({ paymentId, attempt, retryAt });
    if (delayMs === null) break;
    await sleep(delayMs);
  }
  return 'gave_up';
}

/**
 * Starts `payout:<paymentId>` from another workflow, outliving it (the session's confirmation, the
 * study's completion, a payout event with no workflow to take it). One already running is left to
 * run: the same id everywhere, so nothing pays twice.
 */
export async function startPayoutChild(input: PayoutInput): Promise<void> {
  try {
    await startChild(payoutWorkflow, {
      workflowId: payoutWorkflowId(input.paymentId),
      args: [input],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
