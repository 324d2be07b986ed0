// The study offer (docs/decisions/recruitment-and-offers.md, "Offers"): how long it stays open, when its tester is
// reminded, when an accepted offer's test is due, and how its answers read.

/** An offer is open this long after it is sent; then its place goes to the next candidate. */
export const OFFER_WINDOW_MS = 48 * 60 * 60 * 1000;
/** Spec: the tester is reminded when the offer expires in 2 hours. */
export const OFFER_EXPIRY_REMINDER_MS = 2 * 60 * 60 * 1000;
/** An accepted offer's test is due this long after acceptance (the session's `due_at`). */
export const TEST_DUE_AFTER_MS = 48 * 60 * 60 * 1000;

export type OfferAnswer = 'accept' | 'decline';
export const OFFER_ANSWERS: readonly OfferAnswer[] = ['accept', 'decline'];

/** What answering an offer did, or why it changed nothing. */
export const OFFER_OUTCOMES = [
  'accepted',
  'declined',
  'already_accepted',
  'already_declined',
  'expired',
  'withdrawn',
  'filled',
  'not_sent',
  // Its record says open, but its workflow is gone (terminated by an operator): nobody can take it.
  'closed',
] as const;
export type OfferOutcome = (typeof OFFER_OUTCOMES)[number];

/** What an answer to an offer that is no longer open says, from its recorded `offer_status`. */
export function closedOfferOutcome(status: string | null): OfferOutcome {
  switch (status) {
    case 'accepted':
      return 'already_accepted';
    case 'declined':
      return 'already_declined';
    case 'expired':
    case 'withdrawn':
      return status;
    default:
      return 'not_sent';
  }
}

/** The tester-facing sentence for each outcome (the bot's reply, the email link's page). */
export const OFFER_OUTCOME_TEXT: Readonly<Record<OfferOutcome, string>> = {
  accepted: 'You accepted the offer. Your test token is on its way.',
  declined: 'You declined the offer. Thank you for letting us know.',
  already_accepted: 'You have already accepted this offer; nothing changed.',
  already_declined: 'You have already declined this offer; nothing changed.',
  expired: 'This offer has expired; nothing changed.',
  withdrawn: 'This offer was withdrawn: the study no longer takes testers.',
  filled: 'Sorry, the study has all the testers it needs; nothing changed.',
  not_sent: 'This offer is not open.',
  closed:
    "This offer is closed and can no longer be answered; nothing changed. Ask the study's team if you still want to take part.",
};

/** The bot's callback data for an answer: `offer:<answer>:<outreachId>` (within the 64-byte limit). */
export const offerCallbackData = (answer: OfferAnswer, outreachId: string): string =>
  `offer:${answer}:${outreachId}`;

const CALLBACK = /^offer:(accept|decline):([0-9a-f-]{36})$/;

export function parseOfferCallback(data: string): { answer: OfferAnswer; outreachId: string } | undefined {
  const match = CALLBACK.exec(data);
  return match ? { answer: match[1] as OfferAnswer, outreachId: match[2]! } : undefined;
}
