// The offer workflow's messages (workflows/offer.ts): its id and input, the tester's answer (an
// update the API sends), its query, and the signals the study's workflow sends it. No dependencies
// beyond Temporal's definitions and lib/'s types.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { TestReminderKind } from '../../lib/offer-messages.ts';
import type { OfferAnswer, OfferOutcome } from '../../lib/offers.ts';

/** What the session workflow of an accepted offer starts from. */
export interface AcceptedSession {
  readonly sessionId: string;
  readonly startedAt: string;
  readonly dueAt: string;
  readonly maxDurationMinutes: number;
  /** The study's `settings.reminderAfterHours`: when an idle tester is reminded, if at all. */
  readonly reminderAfterHours: number | null;
}

export interface OfferWorkflowInput {
  readonly outreachId: string;
  readonly studyId: string;
  /** ISO 8601: when the approved message is sent (its `scheduledSendAt`). */
  readonly scheduledSendAt: string;
}

/** Where the offer stands, for the Temporal Web UI and operators. */
export interface OfferState {
  /** `held`: not sent, the study was paused meanwhile; it goes out on the study's `resume`. */
  stage: 'scheduled' | 'open' | 'answered' | 'closed' | 'held';
  expiresAt: string | null;
  outcome: OfferOutcome | null;
  /** After acceptance: the session, and the reminders still to come before its test. */
  session: AcceptedSession | null;
  remindersDue: { kind: TestReminderKind; at: string }[];
}

export interface OfferAnswerReply {
  readonly outcome: OfferOutcome;
  readonly sessionId?: string;
}

export const offerWorkflowId = (outreachId: string): string => `offer:${outreachId}`;

/** The tester's answer (a chat button, a signed email link); replies with what it did. */
export const answerOfferUpdate = defineUpdate<OfferAnswerReply, [OfferAnswer]>('answer');
export const offerQuery = defineQuery<OfferState>('offer');
/** Sent by the study's workflow when the study is archived: an offer not yet answered is withdrawn. */
export const withdrawOfferSignal = defineSignal<[]>('withdraw');
/** Sent by the study's workflow once active again to an offer held by a pause: it goes out now. */
export const resumeOfferSignal = defineSignal<[]>('resume');
