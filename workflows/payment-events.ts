import { getExternalWorkflowHandle, log, patched, proxyActivities } from '@temporalio/workflow';
import type { PaymentActivities } from '../activities/payments/payment-activities.ts';
import type { StudyActivities } from '../activities/studies/study-activities.ts';
import type { WebhookActivities } from '../activities/webhooks/delivery-activities.ts';
import { payoutPaidKey } from '../lib/webhook-keys.ts';
import type { PaymentEventInput } from './messages/payment-events.ts';
import { payoutAccountReadySignal, payoutSettledSignal, payoutWorkflowId } from './messages/payout.ts';
import { startDelivery } from './notification.ts';
import { startPayoutChild } from './payout.ts';

const {
  sendStudyCommissionedEmail,
  notifyTesterOfPayout,
  paymentsAwaitingAccount,
  signalStudy,
  announceWebhookEvent,
} = proxyActivities<PaymentActivities & StudyActivities & WebhookActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '10 minutes' },
});

/** Signals a workflow that may have ended; false when nothing is running under that id. */
async function signalIfRunning(send: () => Promise<void>, what: string): Promise<boolean> {
  try {
    await send();
    return true;
  } catch (error) {
    log.info(`${what}: no running workflow took the signal`, { error: String(error) });
    return false;
  }
}

/**
 * Acts on a recorded payment event (id `payment-event:<eventId>`): the webhook route commits the
 * event with its database effects, then starts this, so the signals, mail and messages that follow
 * are retried durably and happen once.
 */
export async function paymentEventWorkflow({ followUp }: PaymentEventInput): Promise<void> {
  switch (followUp.kind) {
    case 'study_paid': {
      // Signal-with-start: a study whose workflow start failed after its row was committed gets
      // its workflow now, from its recorded status, instead of staying draft though paid.
      await signalStudy({ studyId: followUp.studyId, signal: 'paymentConfirmed' });
      await sendStudyCommissionedEmail({ studyId: followUp.studyId });
      return;
    }
    case 'payout_settled': {
      const { paymentId, settlement } = followUp;
      const payout = getExternalWorkflowHandle(payoutWorkflowId(paymentId));
      const taken = await signalIfRunning(
        () => payout.signal(payoutSettledSignal, settlement),
        `payout ${paymentId}`,
      );
      if (settlement.outcome === 'paid') {
        const { notificationId } = await notifyTesterOfPayout({ paymentId });
        if (notificationId) await startDelivery(notificationId);
        // Histories recorded before outgoing webhooks existed replay without this step.
        if (patched('payout-paid-webhooks')) {
          await announceWebhookEvent({ dedupeKey: payoutPaidKey(settlement.payoutId) });
        }
      } else if (!taken) {
        // No payout workflow is waiting for it (the payout failed after it was reported paid, or
        // its workflow is gone): a new one starts from this failure, alerting the admins and
        // queuing the retry.
        await startPayoutChild({ paymentId, failedPayoutId: settlement.payoutId });
      }
      return;
    }
    case 'payout_account_ready': {
      for (const paymentId of await paymentsAwaitingAccount({ testerId: followUp.testerId })) {
        const payout = getExternalWorkflowHandle(payoutWorkflowId(paymentId));
        await signalIfRunning(() => payout.signal(payoutAccountReadySignal), `payout ${paymentId}`);
      }
      return;
    }
  }
}
