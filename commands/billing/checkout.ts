import { toMinorUnits, UnrepresentableAmount } from '../../lib/money.ts';
import { asSystem, asUser } from '../../db/doors.ts';
import {
  checkoutCountOf,
  insertCheckoutSession,
  openCheckoutOf,
  studyForCheckout,
  type CheckoutSessionRow,
} from '../../db/repositories/checkout-sessions.ts';
import { findUserEmail } from '../../db/repositories/users.ts';
import type { Principal } from '../principal.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { askProvider } from './provider-calls.ts';
import type { CommandContext } from '../context.ts';

const view = (row: CheckoutSessionRow) => ({
  checkoutUrl: row.url,
  checkoutSessionId: row.id,
  amountTotal: Number(row.amount_total),
  currency: row.currency,
  expiresAt: row.expires_at.toISOString(),
});

/**
 * One session's compensation in the provider's minor units, refused (422) unless the provider can
 * both charge it and pay it out to the tester: a business must not pay for a payout that cannot
 * be made (10.45 HUF is charged, but HUF is paid out in whole forints only).
 */
function payableUnitAmount(amount: string, currency: string): number {
  try {
    toMinorUnits(amount, currency, 'payout');
    return toMinorUnits(amount, currency, 'charge');
  } catch (error) {
    if (error instanceof UnrepresentableAmount) throw invalid(`compensation.amount: ${error.message}`);
    throw error;
  }
}

/**
 * A checkout session for a draft study: tester count x compensation, in the study's currency's
 * minor units. An open session that has not expired is returned again instead of a second one;
 * concurrent first requests share one idempotency key and so one session at the provider.
 */
export async function startCheckout(deps: CommandContext, principal: Principal, jobId: string) {
  const study = await asUser(deps.db, principal.claims, (tx) => studyForCheckout(tx, jobId));
  if (!study) throw notFound('Study');
  if (study.paid_at) throw conflict('Study is already paid');
  if (study.status !== 'draft') throw conflict(`Study must be draft to check out (it is ${study.status})`);
  const unitAmount = payableUnitAmount(study.compensation_amount, study.compensation_currency);
  if (unitAmount === 0) throw invalid('compensation.amount: a study without compensation has nothing to pay');

  const now = deps.now();
  const { open, count, email } = await asSystem(deps.db, async (tx) => ({
    open: await openCheckoutOf(tx, jobId, now),
    count: await checkoutCountOf(tx, jobId),
    email: await findUserEmail(tx, principal.claims.sub),
  }));
  if (open) return view(open);

  const page = `${deps.config.http.baseUrl}/dashboard/jobs/${jobId}`;
  const created = await askProvider('compensation', () =>
    deps.payments.createCheckout({
      jobId,
      organizationId: study.organization_id,
      title: study.title,
      currency: study.compensation_currency,
      unitAmount,
      quantity: study.tester_count,
      customerEmail: email,
      successUrl: `${page}?checkout=success`,
      cancelUrl: `${page}?checkout=cancelled`,
      idempotencyKey: `checkout:${jobId}:${count + 1}`,
    }),
  );
  const row = await asSystem(deps.db, (tx) =>
    insertCheckoutSession(tx, {
      id: created.id,
      provider: deps.payments.name,
      organization_id: study.organization_id,
      study_id: jobId,
      created_by: principal.claims.sub,
      amount_total: created.amountTotal,
      currency: created.currency,
      url: created.url,
      expires_at: created.expiresAt,
      created_at: now,
    }),
  );
  return view(row);
}
