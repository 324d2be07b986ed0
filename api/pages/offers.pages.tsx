import { z } from 'zod';
import { asUser } from '../../db/doors.ts';
import { isOfferTo, offersOfTester } from '../../db/repositories/offers.ts';
import { OFFER_ANSWERS, OFFER_OUTCOME_TEXT, OFFER_OUTCOMES } from '../../lib/offers.ts';
import type { StudyCommandDependencies } from '../jobs/create-study.ts';
import { answerOffer } from '../offers/answer-offer.ts';
import { notFound } from '../http/errors.ts';
import { OFFERS_PATH, OffersPage } from './offers-page.tsx';
import { requireRole, type PageRouter, type SignedInRequest } from './page-routes.ts';
import { renderPage, seeOther } from './render.ts';

/** One page lists this many offers, newest first. */
const OFFER_LIST_LIMIT = 100;
const offerParams = z.object({ id: z.uuid() });
const answerForm = z.object({ answer: z.enum(OFFER_ANSWERS) });

const ownOffers = (deps: StudyCommandDependencies, request: SignedInRequest) =>
  asUser(deps.db, request.principal.claims, (tx) =>
    offersOfTester(tx, request.principal.claims.sub, OFFER_LIST_LIMIT),
  );

/**
 * The tester's offers (`/offers`): every offer sent to them, the open ones with Accept and Decline,
 * answered through `answerOffer`, the same command as the chat's buttons and the email's signed
 * links. Here the tester's sign-in is what makes the answer theirs.
 */
export function mountOfferListPages(pages: PageRouter, deps: StudyCommandDependencies): void {
  pages.signedIn('GET', OFFERS_PATH, async (request) => {
    requireRole(request, 'tester');
    const done = request.ctx.query.done;
    const notice =
      typeof done === 'string' && (OFFER_OUTCOMES as readonly string[]).includes(done)
        ? OFFER_OUTCOME_TEXT[done as (typeof OFFER_OUTCOMES)[number]]
        : undefined;
    renderPage(
      request.ctx,
      <OffersPage
        csrf={request.csrf}
        viewer={request.viewer}
        offers={await ownOffers(deps, request)}
        now={deps.now()}
        notice={notice}
      />,
    );
  });

  pages.signedIn(
    'POST',
    `${OFFERS_PATH}/:id/answer`,
    async (request) => {
      requireRole(request, 'tester');
      const params = offerParams.safeParse(request.ctx.params);
      const form = answerForm.safeParse(request.form);
      if (!params.success || !form.success) throw notFound('Offer');
      // Row-level security shows a tester the offers sent to them and no other.
      const mine = await asUser(deps.db, request.principal.claims, (tx) =>
        isOfferTo(tx, params.data.id, request.principal.claims.sub),
      );
      if (!mine) throw notFound('Offer');
      const reply = await answerOffer(deps, params.data.id, form.data.answer);
      if (!reply) throw notFound('Offer');
      seeOther(request.ctx, `${OFFERS_PATH}?done=${reply.outcome}`);
    },
    () => OFFERS_PATH,
  );
}
