import { createHmac, timingSafeEqual } from 'node:crypto';
import { offerLinkPlaceholder } from './offer-messages.ts';
import { OFFER_ANSWERS, type OfferAnswer } from './offers.ts';

export interface OfferLinkSettings {
  /** The service's origin, for the email's answer links. */
  readonly baseUrl: string;
  /** The service's signing secret (JWT_SECRET): the links' key is derived from it. */
  readonly secret: string;
}

// The signed answer links of an offer sent by email (docs/decisions/recruitment-and-offers.md, "Answering an offer"). One-time by
// the offer itself: once answered, expired or withdrawn, a link changes nothing.

/** The key of the email links, derived from the service's signing secret for this one use. */
function linkKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('offer-answer-links').digest();
}

/** The signature of one answer to one offer (HMAC-SHA256, base64url). */
export function offerAnswerSignature(secret: string, outreachId: string, answer: OfferAnswer): string {
  return createHmac('sha256', linkKey(secret)).update(`${outreachId}:${answer}`).digest('base64url');
}

export function isOfferAnswerSignature(
  secret: string,
  outreachId: string,
  answer: OfferAnswer,
  signature: string,
): boolean {
  const expected = Buffer.from(offerAnswerSignature(secret, outreachId, answer));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The page an email's link opens: it asks to confirm, so a mail scanner's visit answers nothing. */
export function offerAnswerLink(
  baseUrl: string,
  secret: string,
  outreachId: string,
  answer: OfferAnswer,
): string {
  const signature = offerAnswerSignature(secret, outreachId, answer);
  return `${baseUrl}/offers/${outreachId}?answer=${answer}&signature=${signature}`;
}

/** The text to send: each answer link's placeholder (lib/offer-messages.ts) filled in for the offer. */
export function withOfferLinks(text: string, outreachId: string, settings: OfferLinkSettings): string {
  return OFFER_ANSWERS.reduce(
    (filled, answer) =>
      filled.replaceAll(
        offerLinkPlaceholder(answer),
        offerAnswerLink(settings.baseUrl, settings.secret, outreachId, answer),
      ),
    text,
  );
}
