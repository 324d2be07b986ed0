import type { Context } from 'koa';
import { z } from 'zod';
import type { Db } from '../../../db/connection.ts';
import { asUser } from '../../../db/doors.ts';
import { offersOfTester } from '../../../db/repositories/offers.ts';
import { isOfferAnswerSignature } from '../../../lib/offer-links.ts';
import { OFFER_ANSWERS, type OfferAnswer } from '../../../lib/offers.ts';
import type { SessionPrincipal } from '../../../commands/principal.ts';

/** One page lists this many offers, newest first. */
const OFFER_LIST_LIMIT = 100;
export const offerParams = z.object({ id: z.uuid() });
export const answerForm = z.object({ answer: z.enum(OFFER_ANSWERS) });
/** The query of an offer email's signed link. */
export const linkQuery = z.object({ answer: z.enum(OFFER_ANSWERS), signature: z.string().min(1).max(200) });

/** The offers sent to the tester, as row-level security shows them to the tester. */
export const ownOffers = (db: Db, principal: SessionPrincipal) =>
  asUser(db, principal.claims, (tx) => offersOfTester(tx, principal.claims.sub, OFFER_LIST_LIMIT));

/** The link's offer and answer, when its signature holds; otherwise the page says the link is not valid. */
export function signedAnswer(
  ctx: Context,
  secret: string,
): { id: string; answer: OfferAnswer; signature: string } | undefined {
  const id = offerParams.safeParse(ctx.params);
  const link = linkQuery.safeParse(ctx.query);
  if (!id.success || !link.success) return undefined;
  if (!isOfferAnswerSignature(secret, id.data.id, link.data.answer, link.data.signature)) return undefined;
  return { id: id.data.id, answer: link.data.answer, signature: link.data.signature };
}
