import { type OfferAnswer, offerCallbackData } from './offers.ts';
import { SECRET_PLACEHOLDER } from './outbox-messages.ts';

// The words of the offer's messages. Times are written in UTC, as ISO 8601 without milliseconds.

/** An inline keyboard button of the messaging channel: its label and its callback data. */
export interface ChatButton {
  readonly text: string;
  readonly data: string;
}

/** How a tester answers: buttons in a chat, signed links (one per answer) in an email. */
export type AnswerMeans = { readonly channel: 'messaging' } | { readonly channel: 'email' };

/**
 * Stands in a stored email for its signed answer link, which the delivery fills in
 * (lib/offer-links.ts): the outbox keeps no link that could answer the offer.
 */
export const offerLinkPlaceholder = (answer: OfferAnswer): string => `{{offer-link:${answer}}}`;

export interface OutgoingMessage {
  readonly text: string;
  readonly buttons?: readonly ChatButton[];
}

export const utc = (at: Date): string => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function answering(means: AnswerMeans, outreachId: string, text: string): OutgoingMessage {
  if (means.channel === 'messaging') {
    return {
      text,
      buttons: [
        { text: 'Accept', data: offerCallbackData('accept', outreachId) },
        { text: 'Decline', data: offerCallbackData('decline', outreachId) },
      ],
    };
  }
  return {
    text: [
      text,
      '',
      `Accept: ${offerLinkPlaceholder('accept')}`,
      `Decline: ${offerLinkPlaceholder('decline')}`,
    ].join('\n'),
  };
}

/** The study offer: the approved message, when it closes, and how to answer. */
export function offerMessage(
  outreachId: string,
  approvedBody: string,
  expiresAt: Date,
  means: AnswerMeans,
): OutgoingMessage {
  return answering(means, outreachId, `${approvedBody}\n\nThis offer is open until ${utc(expiresAt)}.`);
}

/** Spec: the reminder when an offer expires in 2 hours. */
export function offerExpiryReminder(
  outreachId: string,
  studyTitle: string,
  expiresAt: Date,
  means: AnswerMeans,
): OutgoingMessage {
  const text = `Reminder: your offer to test "${studyTitle}" expires in 2 hours (${utc(expiresAt)}).`;
  return answering(means, outreachId, text);
}

/** Spec: the acceptance confirmation together with the test token (filled in when sent). */
export function acceptanceConfirmation(studyTitle: string, dueAt: Date, tokenExpiresAt: Date): string {
  return [
    `Thank you for accepting: you are testing "${studyTitle}". Your test is due by ${utc(dueAt)}.`,
    'Your test token:',
    SECRET_PLACEHOLDER,
    `Paste it into the browser extension. It works until ${utc(tokenExpiresAt)} and only for this session.`,
  ].join('\n');
}

/** Spec: the business's "tester matched" email when a tester accepts an offer. */
export function testerMatchedEmail(
  studyTitle: string,
  session: { readonly id: string; readonly variant: string | null; readonly dueAt: Date },
): { subject: string; text: string } {
  return {
    subject: `A tester accepted your study "${studyTitle}"`,
    text: [
      `A tester accepted the offer for "${studyTitle}".`,
      `Session: ${session.id}${session.variant ? ` (variant ${session.variant})` : ''}`,
      `The test is due by ${utc(session.dueAt)}.`,
    ].join('\n'),
  };
}

/** The reminders between acceptance and the test: inactivity, then 24 and 2 hours before it is due. */
export type TestReminderKind = 'inactivity' | 'due_24h' | 'due_2h';

/** A reminder's words; `withToken` when it carries a fresh test token (filled in when sent). */
export function testReminder(
  kind: TestReminderKind,
  study: { readonly title: string; readonly dueAt: Date },
  token?: { readonly expiresAt: Date },
): string {
  const lead =
    kind === 'inactivity'
      ? `You accepted to test "${study.title}" and have not started yet. Your test is due by ${utc(study.dueAt)}.`
      : `Reminder: your test of "${study.title}" is due in ${kind === 'due_24h' ? '24' : '2'} hours (${utc(study.dueAt)}).`;
  if (!token) return lead;
  return [
    lead,
    'Your new test token (the previous one no longer works):',
    SECRET_PLACEHOLDER,
    `It works until ${utc(token.expiresAt)} and only for this session.`,
  ].join('\n');
}
