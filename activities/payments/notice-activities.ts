import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { adminContacts, studyContacts, testerContact } from '../../db/repositories/contacts.ts';
import { queueNotificationOnce } from '../../db/repositories/notification-outbox.ts';
import { findPayment, type PaymentRow } from '../../db/repositories/payments.ts';
import { studyCommission, studyTitle } from '../../db/repositories/studies.ts';
import type { EmailSender } from '../../clients/email.ts';
import { sendEmailOnce } from './emails-once.ts';
import { formatMinorUnits, toMinorUnits } from '../../lib/money.ts';

export interface NoticeActivityDependencies {
  readonly db: Db;
  readonly email: EmailSender;
  /** The service's origin, for links in mail. */
  readonly baseUrl: string;
}

/** The outbox kind of the tester's payment confirmation (spec: through the messaging channel). */
export const PAYMENT_CONFIRMATION_KIND = 'payment_confirmation';

interface AdminAlert {
  readonly kind: string;
  /** Made unique per admin by the admin's id. */
  readonly dedupeKey: string;
  readonly subject: string;
  readonly text: string;
}

/** Mail and messages the money path sends: to businesses, testers and admins. */
export function createNoticeActivities({ db, email, baseUrl }: NoticeActivityDependencies) {
  /** One alert about a payment to every admin, once each; returns how many were sent now. */
  const emailAdmins = async (paymentId: string, alert: (payment: PaymentRow) => AdminAlert) => {
    const { payment, admins } = await asSystem(db, async (tx) => ({
      payment: await findPayment(tx, paymentId),
      admins: await adminContacts(tx),
    }));
    if (!payment) return 0;
    const { kind, dedupeKey, subject, text } = alert(payment);
    let sent = 0;
    for (const admin of admins) {
      const delivered = await sendEmailOnce(db, email, {
        dedupeKey: `${dedupeKey}:${admin.id}`,
        kind,
        userId: admin.id,
        to: admin.email,
        subject,
        text,
      });
      if (delivered) sent += 1;
    }
    return sent;
  };

  return {
    /** The spec's "study commissioned" email, once per study and recipient. */
    async sendStudyCommissionedEmail({ studyId }: { studyId: string }): Promise<number> {
      const { study, recipients } = await asSystem(db, async (tx) => ({
        study: await studyCommission(tx, studyId),
        recipients: await studyContacts(tx, studyId),
      }));
      if (!study) return 0;
      const total =
        toMinorUnits(study.compensation_amount, study.compensation_currency, 'charge') * study.tester_count;
      let sent = 0;
      for (const recipient of recipients) {
        const delivered = await sendEmailOnce(db, email, {
          dedupeKey: `study-commissioned:${studyId}:${recipient.id}`,
          kind: 'study_commissioned',
          userId: recipient.id,
          to: recipient.email,
          subject: `Study commissioned: ${study.title}`,
          text: [
            `Thank you: your payment of ${formatMinorUnits(total, study.compensation_currency)} for "${study.title}" is confirmed.`,
            `The study is now active. We are matching ${study.tester_count} testers to it.`,
            `Follow its progress at ${baseUrl}/dashboard/jobs/${studyId}`,
          ].join('\n\n'),
        });
        if (delivered) sent += 1;
      }
      return sent;
    },

    /**
     * The tester's payment confirmation: queued in the outbox for the messaging channel when a
     * chat is linked (the caller starts its delivery), otherwise sent by email.
     */
    async notifyTesterOfPayout({
      paymentId,
    }: {
      paymentId: string;
    }): Promise<{ notificationId: string | null }> {
      const found = await asSystem(db, async (tx) => {
        const payment = await findPayment(tx, paymentId);
        if (!payment) return undefined;
        const tester = await testerContact(tx, payment.tester_id);
        const title = await studyTitle(tx, payment.study_id);
        return { payment, tester, title };
      });
      if (!found) return { notificationId: null };
      const { payment, tester, title } = found;
      const amount = formatMinorUnits(
        toMinorUnits(payment.amount, payment.currency, 'payout'),
        payment.currency,
      );
      const text = `Your payout of ${amount} for your session on "${title}" has been paid to your bank account. Thank you for testing!`;
      const dedupeKey = `payment-paid:${paymentId}`;
      if (!tester.messaging_chat_id) {
        await sendEmailOnce(db, email, {
          dedupeKey,
          kind: PAYMENT_CONFIRMATION_KIND,
          userId: payment.tester_id,
          to: tester.email,
          subject: `Payout of ${amount} paid`,
          text,
        });
        return { notificationId: null };
      }
      const chatId = tester.messaging_chat_id;
      const notificationId = await asSystem(db, (tx) =>
        queueNotificationOnce(
          tx,
          {
            channel: 'messaging',
            recipient: chatId,
            userId: payment.tester_id,
            kind: PAYMENT_CONFIRMATION_KIND,
            body: text,
            payload: { paymentId, sessionId: payment.session_id },
            dedupeKey,
          },
          new Date(),
        ),
      );
      return { notificationId };
    },

    /** Tells every admin that a payout failed, and whether and when it is tried again. */
    async alertAdminsOfFailedPayout(input: {
      paymentId: string;
      attempt: number | null;
      retryAt: string | null;
    }): Promise<number> {
      return emailAdmins(input.paymentId, (payment) => {
        const attempt = input.attempt ?? payment.attempts;
        const next = input.retryAt
          ? `A retry is queued for ${input.retryAt}.`
          : `No retry is queued. To try again: POST /api/billing/payout {"jobId": "${payment.study_id}"}.`;
        return {
          kind: 'payout_failed_alert',
          dedupeKey: `payout-failed:${payment.id}:${attempt}:${input.retryAt ? 'retry' : 'final'}`,
          subject: `Payout failed for session ${payment.session_id} (attempt ${attempt})`,
          text: [
            `The payout of ${payment.amount} ${payment.currency} for session ${payment.session_id} (payment ${payment.id}) failed.`,
            `Provider payout: ${payment.provider_payout_id ?? 'none'}; failure: ${payment.failure_code ?? 'unknown'}: ${payment.failure_message ?? ''}`,
            next,
          ].join('\n\n'),
        };
      });
    },

    /**
     * Tells every admin that a payout neither arrived nor failed within the days its workflow
     * waited: the payment stays processing, and its event still settles it when it comes.
     */
    async alertAdminsOfUnsettledPayout(input: { paymentId: string; payoutId: string; days: number }) {
      return emailAdmins(input.paymentId, (payment) => ({
        kind: 'payout_unsettled_alert',
        dedupeKey: `payout-unsettled:${payment.id}:${input.payoutId}`,
        subject: `Payout not settled after ${input.days} days for session ${payment.session_id}`,
        text: [
          `The payout ${input.payoutId} of ${payment.amount} ${payment.currency} for session ${payment.session_id} (payment ${payment.id}) was sent ${input.days} days ago, and the payment provider still reports it neither paid nor failed.`,
          'The payment stays processing: its payout event still settles it when it comes. Check the payout with the provider.',
          `To wait for it again: POST /api/billing/payout {"jobId": "${payment.study_id}"}.`,
        ].join('\n\n'),
      }));
    },
  };
}

export type NoticeActivities = ReturnType<typeof createNoticeActivities>;
