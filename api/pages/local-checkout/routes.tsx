import { completeLocalCheckout } from '../../../commands/billing/local-provider.ts';
import { localCheckoutPath, studyPath } from '../paths.ts';
import { commandErrors } from '../shared/form-input.ts';
import type { PageRouter } from '../shared/page-routes.ts';
import { renderPage, seeOther } from '../shared/render.ts';
import { checkoutSessionOf } from './data.ts';
import { LocalCheckoutPage } from './view.tsx';
import type { CommandContext } from '../../../commands/context.ts';

/**
 * `/billing/local-checkout/:id`, the checkout URL of the local payment provider (development and
 * test only; the 404 page otherwise): what a person sees where the provider would show its page.
 * Scripts pay through `GET /api/billing/local-checkout/:id`; both post the same signed event.
 */
export function mountLocalCheckoutPages(pages: PageRouter, billing: CommandContext): void {
  pages.public('GET', localCheckoutPath(':id'), async (request) => {
    const session = await checkoutSessionOf(billing, request);
    renderPage(
      request.ctx,
      <LocalCheckoutPage csrf={request.csrf} viewer={request.viewer} session={session} />,
    );
  });

  pages.public('POST', localCheckoutPath(':id'), async (request) => {
    const session = await checkoutSessionOf(billing, request);
    try {
      await completeLocalCheckout(billing, session.id);
    } catch (error) {
      const { errors, status } = commandErrors(error, []);
      const fresh = await checkoutSessionOf(billing, request);
      renderPage(
        request.ctx,
        <LocalCheckoutPage csrf={request.csrf} viewer={request.viewer} session={fresh} errors={errors} />,
        status,
      );
      return;
    }
    seeOther(request.ctx, `${studyPath(session.study_id)}?checkout=success`);
  });
}
