import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../../db/connection.ts';
import { asSystem, type Tx } from '../../db/doors.ts';
import { studyContacts } from '../../db/repositories/contacts.ts';
import { notificationIdByDedupeKey } from '../../db/repositories/notification-outbox.ts';
import {
  changeOffer,
  closeOffer,
  lockOffer,
  unsentOffers,
  withdrawUnsentOffers,
  type OfferRecord,
} from '../../db/repositories/offers.ts';
import { findSession } from '../../db/repositories/sessions.ts';
import { findStudy } from '../../db/repositories/studies.ts';
import { existingUserId } from '../../db/repositories/users.ts';
import { openSession } from '../../commands/sessions/open-session.ts';
import type { AcceptedSession } from '../../workflows/messages/offer.ts';
import { OUTREACH_DECISION_REFUSED } from '../../lib/failures.ts';
import {
  acceptanceConfirmation,
  type AnswerMeans,
  type OutgoingMessage,
  offerExpiryReminder,
  offerMessage,
  testerMatchedEmail,
} from '../../lib/offer-messages.ts';
import {
  closedOfferOutcome,
  type OfferAnswer,
  type OfferOutcome,
  TEST_DUE_AFTER_MS,
} from '../../lib/offers.ts';
import { TEST_TOKEN_KIND } from '../../lib/outbox-messages.ts';
import { queueForStudyContacts, queueForTester } from '../notify/queue-for-people.ts';

export interface OfferActivityDependencies {
  readonly db: Db;
}

export interface OfferAnswerResult {
  readonly outcome: OfferOutcome;
  /** The session an acceptance created. */
  readonly session?: AcceptedSession;
  /** The messages the answer queued (the tester's token, the business's mail), to deliver. */
  readonly notificationIds: readonly string[];
}

const testerMatchedKey = (outreachId: string) => `tester-matched:${outreachId}`;

const refused = (message: string) => ApplicationFailure.nonRetryable(message, OUTREACH_DECISION_REFUSED);

/** A tester who may no longer take part: suspended, or a profile no longer active. */
const unavailable = (offer: OfferRecord) =>
  offer.tester_user_status === 'suspended' || offer.tester_profile_status !== 'active';

/**
 * Offers: an approved outreach message is sent as the study's offer, answered by its tester
 * (accept creates the session and its token), reminded of, expired or withdrawn. The offer
 * workflow runs them; each is safe to repeat (the offer's recorded state decides).
 */
export function createOfferActivities({ db }: OfferActivityDependencies) {
  const means = (offer: OfferRecord): AnswerMeans =>
    offer.tester_chat_id ? { channel: 'messaging' } : { channel: 'email' };

  /** Queues a message about the offer to its tester once: to the linked chat, else by email. */
  function queueToTester(
    tx: Tx,
    offer: OfferRecord,
    message: OutgoingMessage & { kind: string; dedupeKey: string; subject: string },
    payload: Record<string, unknown> = {},
    at: Date,
  ): Promise<string> {
    const tester = { id: offer.tester_id, email: offer.recipient_email, chatId: offer.tester_chat_id };
    const buttons = message.buttons ? { buttons: message.buttons } : {};
    return queueForTester(
      tx,
      tester,
      { ...message, body: message.text, payload: { outreachId: offer.id, ...payload, ...buttons } },
      at,
    );
  }

  /** Closes an open (or approved, unsent) offer as `status`; false when it had ended otherwise. */
  const close = (outreachId: string, status: 'expired' | 'withdrawn', at: Date): Promise<boolean> =>
    asSystem(db, (tx) => closeOffer(tx, outreachId, status, at));

  async function accept(tx: Tx, offer: OfferRecord, at: Date): Promise<OfferAnswerResult> {
    const withdraw = async (outcome: OfferOutcome) => {
      await changeOffer(tx, offer.id, { offer_status: 'withdrawn' }, at);
      return { outcome, notificationIds: [] };
    };
    if (offer.study_status !== 'active' && offer.study_status !== 'paused') return withdraw('withdrawn');
    if (unavailable(offer)) return withdraw('withdrawn');
    const record = await findStudy(tx, offer.study_id);
    if (!record) return withdraw('withdrawn');
    const dueAt = new Date(at.getTime() + TEST_DUE_AFTER_MS);
    const opened = await openSession(tx, { record, testerId: offer.tester_id, at, dueAt });
    // Every place taken ('filled'), or a session made by hand for this tester meanwhile: the offer
    // has nothing left to give.
    if (!opened.opened) return withdraw(opened.studyFull ? 'filled' : 'withdrawn');
    const { session, token } = opened;
    await changeOffer(
      tx,
      offer.id,
      { offer_status: 'accepted', answered_at: at, session_id: session.id },
      at,
    );
    const confirmation = await queueToTester(
      tx,
      offer,
      {
        kind: TEST_TOKEN_KIND,
        dedupeKey: `offer-accepted:${offer.id}`,
        subject: `Your test token for "${offer.study_title}"`,
        text: acceptanceConfirmation(offer.study_title, dueAt, token.expiresAt),
      },
      { sessionId: session.id, expiresAt: token.expiresAt.toISOString(), secret: token.token },
      at,
    );
    const matched = testerMatchedEmail(offer.study_title, {
      id: session.id,
      variant: session.variant,
      dueAt,
    });
    const mails = await queueForStudyContacts(
      tx,
      offer.study_id,
      {
        kind: 'tester_matched',
        dedupeKey: testerMatchedKey(offer.id),
        subject: matched.subject,
        body: matched.text,
        payload: { outreachId: offer.id, sessionId: session.id },
      },
      at,
    );
    return {
      outcome: 'accepted',
      session: {
        sessionId: session.id,
        startedAt: at.toISOString(),
        dueAt: dueAt.toISOString(),
        maxDurationMinutes: offer.max_duration_minutes,
        reminderAfterHours: offer.reminder_after_hours,
      },
      notificationIds: [confirmation, ...mails],
    };
  }

  /** The result an acceptance gave, rebuilt from what it recorded (a retried activity). */
  async function acceptedAgain(tx: Tx, offer: OfferRecord): Promise<OfferAnswerResult> {
    const session = await findSession(tx, offer.session_id!);
    const keys = [
      `offer-accepted:${offer.id}`,
      ...(await studyContacts(tx, offer.study_id)).map(
        (contact) => `tester-matched:${offer.id}:${contact.id}`,
      ),
    ];
    const notificationIds = [];
    for (const key of keys) {
      const id = await notificationIdByDedupeKey(tx, key);
      if (id) notificationIds.push(id);
    }
    return {
      outcome: 'accepted',
      session: {
        sessionId: session!.id,
        startedAt: session!.started_at.toISOString(),
        dueAt: session!.due_at!.toISOString(),
        maxDurationMinutes: offer.max_duration_minutes,
        reminderAfterHours: offer.reminder_after_hours,
      },
      notificationIds,
    };
  }

  return {
    /**
     * Approves a pending message for sending at `approvedAt` (the workflow's time, which a retry
     * finds again); a message decided meanwhile is refused.
     */
    async approveOutreach(input: {
      outreachId: string;
      approvedBy: string;
      approvedAt: string;
    }): Promise<{ approvedAt: string; scheduledSendAt: string }> {
      const at = new Date(input.approvedAt);
      return asSystem(db, async (tx) => {
        const offer = await lockOffer(tx, input.outreachId);
        if (!offer) throw refused('Outreach message not found');
        if (offer.status === 'approved' && offer.approved_at?.getTime() === at.getTime()) {
          return { approvedAt: input.approvedAt, scheduledSendAt: offer.scheduled_send_at!.toISOString() };
        }
        if (offer.status !== 'pending') {
          throw refused(`Outreach message must be pending to approve (it is ${offer.status})`);
        }
        await changeOffer(
          tx,
          offer.id,
          {
            status: 'approved',
            approved_by: existingUserId(input.approvedBy),
            approved_at: at,
            scheduled_send_at: at,
          },
          at,
        );
        return { approvedAt: input.approvedAt, scheduledSendAt: input.approvedAt };
      });
    },

    /**
     * Sends the approved message as the offer, open until `expiresAt`, with its means of answer
     * (chat buttons or signed links). Not sent when the study no longer recruits or the tester may
     * no longer take part: the offer is withdrawn. A repeat finds the queued message again.
     */
    async sendOffer(input: {
      outreachId: string;
      sentAt: string;
      expiresAt: string;
    }): Promise<{ sent: boolean; held?: boolean; notificationId: string | null }> {
      const at = new Date(input.sentAt);
      const expiresAt = new Date(input.expiresAt);
      return asSystem(db, async (tx) => {
        const offer = await lockOffer(tx, input.outreachId);
        if (!offer || offer.status !== 'approved') return { sent: false, notificationId: null };
        if (offer.offer_status === null) {
          // Paused since the study started this offer: unsent, it waits for the resume.
          if (offer.study_status === 'paused' && !unavailable(offer)) {
            return { sent: false, held: true, notificationId: null };
          }
          if (offer.study_status !== 'active' || unavailable(offer)) {
            await changeOffer(tx, offer.id, { offer_status: 'withdrawn' }, at);
            return { sent: false, notificationId: null };
          }
          await changeOffer(
            tx,
            offer.id,
            { offer_status: 'open', sent_at: at, offer_expires_at: expiresAt },
            at,
          );
        } else if (offer.offer_status !== 'open') {
          return { sent: false, notificationId: null };
        }
        const message = offerMessage(offer.id, offer.body, offer.offer_expires_at ?? expiresAt, means(offer));
        const subject = offer.subject ?? `An invitation to test "${offer.study_title}"`;
        const notificationId = await queueToTester(
          tx,
          offer,
          { ...message, kind: 'study_offer', dedupeKey: `offer:${offer.id}`, subject },
          {},
          at,
        );
        return { sent: true, notificationId };
      });
    },

    /**
     * The study's approved messages not sent yet (held by a pause, or approved before the study's
     * workflow last started), for the study to send once it is active.
     */
    async unsentOffers({
      studyId,
    }: {
      studyId: string;
    }): Promise<{ outreachId: string; scheduledSendAt: string }[]> {
      const rows = await asSystem(db, (tx) => unsentOffers(tx, studyId));
      return rows.map((row) => ({
        outreachId: row.id,
        scheduledSendAt: (row.scheduled_send_at ?? new Date(0)).toISOString(),
      }));
    },

    /** The study stopped recruiting (completed, archived): its unsent approved messages are withdrawn. */
    async withdrawUnsentOffers({ studyId, at }: { studyId: string; at: string }): Promise<number> {
      return asSystem(db, (tx) => withdrawUnsentOffers(tx, studyId, new Date(at)));
    },

    /** Spec: the reminder 2 hours before the offer expires, once, while it is still open. */
    async remindOfferExpiry({ outreachId, at }: { outreachId: string; at: string }): Promise<string | null> {
      return asSystem(db, async (tx) => {
        const offer = await lockOffer(tx, outreachId);
        if (offer?.offer_status !== 'open' || !offer.offer_expires_at) return null;
        const message = offerExpiryReminder(
          offer.id,
          offer.study_title,
          offer.offer_expires_at,
          means(offer),
        );
        return queueToTester(
          tx,
          offer,
          {
            ...message,
            kind: 'offer_expiry_reminder',
            dedupeKey: `offer-expiry-reminder:${offer.id}`,
            subject: `Your offer to test "${offer.study_title}" expires in 2 hours`,
          },
          {},
          new Date(at),
        );
      });
    },

    /** An offer left unanswered expires: its place is free for the next candidate. */
    async expireOffer({ outreachId, at }: { outreachId: string; at: string }): Promise<boolean> {
      return close(outreachId, 'expired', new Date(at));
    },

    /** The study stopped recruiting (archived): an offer not yet answered is withdrawn. */
    async withdrawOffer({ outreachId, at }: { outreachId: string; at: string }): Promise<boolean> {
      return close(outreachId, 'withdrawn', new Date(at));
    },

    /**
     * The tester's answer. Accepting creates the session (variant by the study's split), its test
     * token and due time, and queues the acceptance confirmation with the token and the business's
     * "tester matched" mail, all in one transaction. An offer already answered, expired (by the
     * clock, even before its timer fired), withdrawn, or whose study is full changes nothing.
     */
    async answerOffer(input: {
      outreachId: string;
      answer: OfferAnswer;
      at: string;
    }): Promise<OfferAnswerResult> {
      const at = new Date(input.at);
      return asSystem(db, async (tx) => {
        const offer = await lockOffer(tx, input.outreachId);
        if (!offer || offer.status !== 'approved') return { outcome: 'not_sent', notificationIds: [] };
        // A retry of this very answer after its commit (the workflow's time is its stamp): the
        // first attempt's result again, so its session and messages are not lost.
        if (offer.answered_at?.getTime() === at.getTime()) {
          if (offer.offer_status === 'declined') return { outcome: 'declined', notificationIds: [] };
          if (offer.offer_status === 'accepted') return acceptedAgain(tx, offer);
        }
        if (offer.offer_status !== 'open') {
          return { outcome: closedOfferOutcome(offer.offer_status), notificationIds: [] };
        }
        if (offer.offer_expires_at && offer.offer_expires_at <= at) {
          await changeOffer(tx, offer.id, { offer_status: 'expired', answered_at: at }, at);
          return { outcome: 'expired', notificationIds: [] };
        }
        if (input.answer === 'decline') {
          await changeOffer(tx, offer.id, { offer_status: 'declined', answered_at: at }, at);
          return { outcome: 'declined', notificationIds: [] };
        }
        return accept(tx, offer, at);
      });
    },
  };
}

export type OfferActivities = ReturnType<typeof createOfferActivities>;
