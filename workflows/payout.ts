import {
  condition,
  ParentClosePolicy,
  patched,
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
import { startDelivery } from './notification.ts';

/** Attempts one payout workflow makes before it gives up and leaves the payment to an admin. */
export const MAX_PAYOUT_ATTEMPTS = 5;
/** Wait before the next attempt after the n-th failure: 1 h, 2 h, 4 h, 8 h. */
export const payoutRetryDelayMs = (failures: number): number => 60 * 60 * 1000 * 2 ** (failures - 1);
/** How often a payout waiting for the tester's account checks again without being told. */
const ACCOUNT_RECHECK_MS = 24 * 60 * 60 * 1000;
/** After this many rechecks the workflow stops waiting; POST /api/billing/payout starts it again. */
const MAX_ACCOUNT_RECHECKS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Standard payouts arrive within two business days, and their event with them. */
export const SETTLEMENT_FIRST_CHECK_MS = 3 * DAY_MS;
export const SETTLEMENT_CHECK_EVERY_MS = DAY_MS;
/** A bank can take up to ten business days to return a payout; a month covers it twice. */
export const SETTLEMENT_WAIT_DAYS = 30;

const {
  preparePayout,
  recordPayoutRetry,
  alertAdminsOfFailedPayout,
  alertAdminsOfUnsettledPayout,
  checkPayout,
  notifyTesterOfPayout,
} = proxyActivities<PaymentActivities>({
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
      const settled = await settlementOf(paymentId, payoutId, attempt, settlements);
      if (settled === 'paid') return 'paid';
      if (settled === 'unsettled') return 'unsettled';
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
 * How the payout's settlement is awaited: its event, or, when the event is late, the provider's
 * answer. Asked first SETTLEMENT_FIRST_CHECK_MS after the payout is sent, then every
 * SETTLEMENT_CHECK_EVERY_MS until SETTLEMENT_WAIT_DAYS have passed; then the admins are told and
 * the workflow ends `unsettled`, leaving the payment processing for its event to settle.
 */
async function settlementOf(
  paymentId: string,
  payoutId: string,
  attempt: number,
  settlements: ReadonlyMap<string, PayoutSettlement['outcome']>,
): Promise<PayoutSettlement['outcome'] | 'unsettled'> {
  const told = () => settlements.has(payoutId);
  // Workflows that began waiting before checks existed keep waiting as they did.
  if (!patched('bounded-settlement')) {
    await condition(told);
    return settlements.get(payoutId)!;
  }
  let waitedMs = 0;
  while (waitedMs < SETTLEMENT_WAIT_DAYS * DAY_MS) {
    const waitMs = waitedMs === 0 ? SETTLEMENT_FIRST_CHECK_MS : SETTLEMENT_CHECK_EVERY_MS;
    if (await condition(told, waitMs)) return settlements.get(payoutId)!;
    waitedMs += waitMs;
    const asked = await checkPayout({ paymentId, payoutId, attempt });
    if (asked === 'paid') {
      // The event that comes later finds the payment paid and does nothing: the tester is told here.
      const { notificationId } = await notifyTesterOfPayout({ paymentId });
      if (notificationId) await startDelivery(notificationId);
    }
    if (asked !== 'pending') return asked;
  }
  await alertAdminsOfUnsettledPayout({ paymentId, payoutId, days: SETTLEMENT_WAIT_DAYS });
  return 'unsettled';
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
