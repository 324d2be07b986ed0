import type Router from '@koa/router';
import { asUser } from '../../../db/doors.ts';
import { isOfferTo } from '../../../db/repositories/offers.ts';
import { OFFER_OUTCOME_TEXT, OFFER_OUTCOMES } from '../../../lib/offers.ts';
import { ApiError, notFound } from '../../../lib/errors.ts';
import type { RawEndpoint } from '../../http/openapi.ts';
import type { RequestState } from '../../http/state.ts';
import { answerOffer } from '../../../commands/offers/answer-offer.ts';
import { offerAnswerPath, offerLinkPath, OFFERS_PATH, sessionStartAfterAcceptPath } from '../paths.ts';
import { requireRole, type PageRouter } from '../shared/page-routes.ts';
import { renderPage, seeOther } from '../shared/render.ts';
import { answerForm, linkQuery, offerParams, ownOffers, signedAnswer } from './data.ts';
import { OfferLinkAnsweredPage, OfferLinkPage, OffersPage } from './view.tsx';
import type { CommandContext } from '../../../commands/context.ts';

const TAG = 'Offers';

/** The pages an offer's email links open, as the OpenAPI document lists them. */
export const OFFER_PAGE_ENDPOINTS: readonly RawEndpoint[] = [
  {
    method: 'GET',
    path: offerLinkPath(':id'),
    summary: "An offer email's signed link: a page asking the tester to confirm the answer (changes nothing)",
    tag: TAG,
    contentTypes: ['text/html'],
    params: offerParams,
    query: linkQuery,
  },
  {
    method: 'POST',
    path: offerLinkPath(':id'),
    summary:
      "Confirms the signed answer to an offer (the page's button) and shows what it did; 409 when the offer can no longer be answered",
    tag: TAG,
    contentTypes: ['text/html'],
    params: offerParams,
    query: linkQuery,
    errors: [409],
  },
];

/**
 * The tester's offers (`/offers`): every offer sent to them, the open ones with Accept and Decline,
 * answered through `answerOffer`, the same command as the chat's buttons and the email's signed
 * links. Here the tester's sign-in is what makes the answer theirs.
 */
export function mountOfferListPages(pages: PageRouter, deps: CommandContext): void {
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
        offers={await ownOffers(deps.db, request.principal)}
        now={deps.now()}
        notice={notice}
      />,
    );
  });

  pages.signedIn(
    'POST',
    offerAnswerPath(':id'),
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
      // An accepted offer leads straight to its session's start page, whose button starts the recorder.
      seeOther(
        request.ctx,
        reply.outcome === 'accepted' && reply.sessionId
          ? sessionStartAfterAcceptPath(reply.sessionId)
          : `${OFFERS_PATH}?done=${reply.outcome}`,
      );
    },
    () => OFFERS_PATH,
  );
}

const invalidLink = (): never => {
  throw new ApiError(
    'not_found',
    'Offer link not found: open the link from the offer email exactly as it was sent',
  );
};

/**
 * The answer links of an offer sent by email. Opening one only shows a page with a button: mail
 * scanners that follow links answer nothing. The button posts the same signed answer, which the
 * offer takes once; any later answer shows what became of the offer and changes nothing.
 */
export function mountOfferPages(router: Router<RequestState>, deps: CommandContext): void {
  router.get(offerLinkPath(':id'), (ctx) => {
    const link = signedAnswer(ctx, deps.config.auth.jwtSecret);
    if (!link) return invalidLink();
    renderPage(ctx, <OfferLinkPage offerId={link.id} answer={link.answer} signature={link.signature} />);
  });
  router.post(offerLinkPath(':id'), async (ctx) => {
    const link = signedAnswer(ctx, deps.config.auth.jwtSecret);
    if (!link) return invalidLink();
    const reply = await answerOffer(deps, link.id, link.answer);
    if (!reply) return invalidLink();
    // An offer nobody can take any more is a conflict (409), shown as the page of the answer.
    renderPage(
      ctx,
      <OfferLinkAnsweredPage outcome={reply.outcome} sessionId={reply.sessionId} />,
      reply.outcome === 'closed' ? 409 : 200,
    );
  });
}
