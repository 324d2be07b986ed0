import type { CheckoutSessionRow } from '../../../db/repositories/checkout-sessions.ts';
import { formatMinorUnits } from '../../../lib/money.ts';
import { studyPath } from '../paths.ts';
import { ErrorSummary, type FieldErrors } from '../shared/form-fields.tsx';
import { CsrfField, Layout, type Viewer } from '../shared/layout.tsx';

interface CheckoutPageProps {
  readonly csrf: string;
  readonly viewer: Viewer | undefined;
  readonly session: CheckoutSessionRow;
  readonly errors?: FieldErrors;
}

/** The local provider's stand-in for a hosted checkout page: pay, or go back having paid nothing. */
export function LocalCheckoutPage({ csrf, viewer, session, errors = {} }: CheckoutPageProps) {
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
