import { z } from 'zod';
import { asSystem } from '../../db/doors.ts';
import { findCheckoutSession, type CheckoutSessionRow } from '../../db/repositories/checkout-sessions.ts';
import { formatMinorUnits } from '../../lib/money.ts';
import type { BillingDependencies } from '../billing/billing-dependencies.ts';
import { completeLocalCheckout } from '../billing/local-pages.ts';
import { notFound } from '../http/errors.ts';
import { ErrorSummary, type FieldErrors } from './form-fields.tsx';
import { commandErrors } from './form-input.ts';
import { CsrfField, Layout, type Viewer } from './layout.tsx';
import type { PageRequest, PageRouter } from './page-routes.ts';
import { renderPage, seeOther } from './render.ts';
import { studyPath } from './study-page.tsx';

const params = z.object({ id: z.string().min(1).max(255) });

interface CheckoutPageProps {
  readonly csrf: string;
  readonly viewer: Viewer | undefined;
  readonly session: CheckoutSessionRow;
  readonly errors?: FieldErrors;
}

/** The local provider's stand-in for a hosted checkout page: pay, or go back having paid nothing. */
function LocalCheckoutPage({ csrf, viewer, session, errors = {} }: CheckoutPageProps) {
  const back = studyPath(session.study_id);
  return (
    <Layout title="Local test checkout" viewer={viewer} csrf={csrf}>
      <ErrorSummary errors={errors} labels={{}} />
      <p>
        This service runs without a payment provider: this page stands in for the provider&apos;s checkout. No
        card is asked for and no money moves; paying here sends the provider&apos;s signed payment event to
        the service, as the real provider would.
      </p>
      <dl class="facts">
        <dt>Amount</dt>
        <dd>{formatMinorUnits(session.amount_total, session.currency)}</dd>
        <dt>Checkout</dt>
        <dd>{session.status === 'complete' ? 'paid' : session.status}</dd>
      </dl>
      {session.status === 'open' ? (
        <form method="post">
          <CsrfField token={csrf} />
          <button type="submit">Pay</button>
        </form>
      ) : null}
      <p>
        <a href={session.status === 'open' ? `${back}?checkout=cancelled` : back}>
          {session.status === 'open' ? 'Cancel and go back to the study' : 'Back to the study'}
        </a>
      </p>
    </Layout>
  );
}

/**
 * `/billing/local-checkout/:id`, the checkout URL of the local payment provider (development and
 * test only; the 404 page otherwise): what a person sees where the provider would show its page.
 * Scripts pay through `GET /api/billing/local-checkout/:id`; both post the same signed event.
 */
export function mountLocalCheckoutPages(pages: PageRouter, billing: BillingDependencies): void {
  async function sessionOf(request: PageRequest): Promise<CheckoutSessionRow> {
    const id = params.safeParse(request.ctx.params);
    const session =
      id.success && billing.payments.mode === 'local'
        ? await asSystem(billing.db, (tx) => findCheckoutSession(tx, id.data.id))
        : undefined;
    if (!session || session.provider !== 'local') throw notFound('Checkout session');
    return session;
  }

  pages.public('GET', '/billing/local-checkout/:id', async (request) => {
    const session = await sessionOf(request);
    renderPage(
      request.ctx,
      <LocalCheckoutPage csrf={request.csrf} viewer={request.viewer} session={session} />,
    );
  });

  pages.public('POST', '/billing/local-checkout/:id', async (request) => {
    const session = await sessionOf(request);
    try {
      await completeLocalCheckout(billing, session.id);
    } catch (error) {
      const { errors, status } = commandErrors(error, []);
      const fresh = await sessionOf(request);
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
