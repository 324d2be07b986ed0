import type Router from '@koa/router';
import type { Context } from 'koa';
import type { VNode } from 'preact';
import { z } from 'zod';
import { isOfferAnswerSignature } from '../../lib/offer-links.ts';
import { OFFER_ANSWERS, OFFER_OUTCOME_TEXT, type OfferAnswer } from '../../lib/offers.ts';
import { ApiError } from '../http/errors.ts';
import type { RawEndpoint } from '../http/openapi.ts';
import type { RequestState } from '../http/state.ts';
import { answerOffer, type OfferAnswerDependencies } from './answer-offer.ts';
import { Layout } from '../pages/layout.tsx';
import { renderPage } from '../pages/render.ts';

export interface OfferPageDependencies extends OfferAnswerDependencies {
  /** The service's signing secret (JWT_SECRET), from which the links' key is derived. */
  readonly secret: string;
}

const TAG = 'Offers';
const params = z.object({ id: z.uuid() });
const query = z.object({ answer: z.enum(OFFER_ANSWERS), signature: z.string().min(1).max(200) });

/** The pages an offer's email links open, as the OpenAPI document lists them. */
export const OFFER_PAGE_ENDPOINTS: readonly RawEndpoint[] = [
  {
    method: 'GET',
    path: '/offers/:id',
    summary: "An offer email's signed link: a page asking the tester to confirm the answer (changes nothing)",
    tag: TAG,
    contentTypes: ['text/html'],
    params,
    query,
  },
  {
    method: 'POST',
    path: '/offers/:id',
    summary: "Confirms the signed answer to an offer (the page's button) and shows what it did",
    tag: TAG,
    contentTypes: ['text/html'],
    params,
    query,
  },
];

/** A page of the offer's links: signed by the link itself, so no sign-in and no account header. */
function page(ctx: Context, title: string, body: VNode): void {
  renderPage(ctx, <Layout title={title}>{body}</Layout>);
}

const VERB: Readonly<Record<OfferAnswer, string>> = { accept: 'Accept', decline: 'Decline' };

/** The link's offer and answer, when its signature holds; otherwise the page says the link is not valid. */
function signedAnswer(ctx: Context, secret: string): { id: string; answer: OfferAnswer } | undefined {
  const id = params.safeParse(ctx.params);
  const link = query.safeParse(ctx.query);
  if (!id.success || !link.success) return undefined;
  if (!isOfferAnswerSignature(secret, id.data.id, link.data.answer, link.data.signature)) return undefined;
  return { id: id.data.id, answer: link.data.answer };
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
export function mountOfferPages(router: Router<RequestState>, deps: OfferPageDependencies): void {
  router.get('/offers/:id', (ctx) => {
    const link = signedAnswer(ctx, deps.secret);
    if (!link) return invalidLink();
    const action = `/offers/${link.id}?answer=${link.answer}&signature=${encodeURIComponent(String(ctx.query.signature))}`;
    page(
      ctx,
      `${VERB[link.answer]} the study offer`,
      <>
        <p>{`Press the button to ${link.answer} the offer.`}</p>
        <form method="post" action={action}>
          <button type="submit">{`${VERB[link.answer]} the offer`}</button>
        </form>
      </>,
    );
  });
  router.post('/offers/:id', async (ctx) => {
    const link = signedAnswer(ctx, deps.secret);
    if (!link) return invalidLink();
    const reply = await answerOffer(deps, link.id, link.answer);
    if (!reply) return invalidLink();
    const title =
      reply.outcome === 'accepted' || reply.outcome === 'declined' ? 'Thank you' : 'Nothing changed';
    page(ctx, title, <p role="status">{OFFER_OUTCOME_TEXT[reply.outcome]}</p>);
  });
}
