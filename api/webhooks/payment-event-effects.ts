import { z } from 'zod';
import type { Tx } from '../../db/doors.ts';
import {
  completeCheckoutSession,
  findCheckoutSession,
  markStudyPaid,
} from '../../db/repositories/checkout-sessions.ts';
import { markPaymentPaid, paymentOfPayout, recordPayoutFailed } from '../../db/repositories/payments.ts';
import { applyAccountState } from '../../db/repositories/payout-accounts.ts';
import type { PaymentFollowUp } from '../../workflows/payment-events.ts';

/** The parts of a verified provider event the service reads. */
export interface PaymentEvent {
  readonly id: string;
  readonly type: string;
  readonly created: number;
  readonly data: { readonly object: Record<string, unknown> };
}

/** What an event did: what remains for its workflow, or why nothing was done. */
export interface EventEffect {
  readonly followUp?: PaymentFollowUp;
  readonly note?: string;
}

// The object fields each event type is read for (spec, Events); anything else is ignored.
const checkoutObject = z.object({
  id: z.string(),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  payment_status: z.string().nullish(),
});
const accountObject = z.object({
  id: z.string(),
  charges_enabled: z.boolean().nullish(),
  payouts_enabled: z.boolean().nullish(),
  details_submitted: z.boolean().nullish(),
  requirements: z
    .object({ currently_due: z.array(z.string()).nullish(), eventually_due: z.array(z.string()).nullish() })
    .nullish(),
});
const payoutObject = z.object({
  id: z.string(),
  failure_code: z.string().nullish(),
  failure_message: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});

type Handler = (tx: Tx, object: Record<string, unknown>, at: Date, apply: boolean) => Promise<EventEffect>;

/**
 * The checkout the service created, paid in full: the study is paid and its workflow is told.
 * A checkout the service did not create, or for another amount, changes nothing.
 */
const checkoutCompleted: Handler = async (tx, object, at, apply) => {
  const parsed = checkoutObject.safeParse(object);
  if (!parsed.success) return { note: 'unexpected checkout session shape' };
  const { id, amount_total, currency, payment_status } = parsed.data;
  const session = await findCheckoutSession(tx, id);
  if (!session) return { note: `unknown checkout session ${id}` };
  // Delayed payment methods complete the session unpaid; their async_payment_succeeded follows.
  if (payment_status !== 'paid' && payment_status !== 'no_payment_required') {
    return { note: `checkout completed with payment ${payment_status ?? 'unknown'}` };
  }
  if (Number(session.amount_total) !== amount_total || session.currency !== currency?.toUpperCase()) {
    return {
      note: `checkout paid ${amount_total} ${currency}, expected ${session.amount_total} ${session.currency}`,
    };
  }
  if (apply) {
    await completeCheckoutSession(tx, id, at);
    await markStudyPaid(tx, session.study_id, at);
  }
  return { followUp: { kind: 'study_paid', jobId: session.study_id } };
};

const accountUpdated: Handler = async (tx, object, _at, apply) => {
  const parsed = accountObject.safeParse(object);
  if (!parsed.success) return { note: 'unexpected account shape' };
  const account = parsed.data;
  const state = {
    chargesEnabled: account.charges_enabled ?? false,
    payoutsEnabled: account.payouts_enabled ?? false,
    detailsSubmitted: account.details_submitted ?? false,
    currentlyDue: account.requirements?.currently_due ?? [],
    eventuallyDue: account.requirements?.eventually_due ?? [],
  };
  const row = apply
    ? await applyAccountState(tx, account.id, state)
    : await tx
        .selectFrom('payout_accounts')
        .selectAll()
        .where('provider_account_id', '=', account.id)
        .executeTakeFirst();
  if (!row) return { note: `unknown payout account ${account.id}` };
  return state.payoutsEnabled ? { followUp: { kind: 'payout_account_ready', testerId: row.tester_id } } : {};
};

const payoutPaid: Handler = async (tx, object, at, apply) => {
  const parsed = payoutObject.safeParse(object);
  if (!parsed.success) return { note: 'unexpected payout shape' };
  const payout = parsed.data;
  const payment = await paymentOfPayout(tx, payout.id, payout.metadata?.paymentId);
  if (!payment) return { note: `unknown payout ${payout.id}` };
  if (apply && !(await markPaymentPaid(tx, payment.id, { payoutId: payout.id, paidAt: at }))) {
    return { note: 'payment already paid' };
  }
  return {
    followUp: {
      kind: 'payout_settled',
      paymentId: payment.id,
      settlement: { payoutId: payout.id, outcome: 'paid' },
    },
  };
};

/** Only the payment's current payout can fail it; an event about an earlier attempt's payout is stale. */
const payoutFailed: Handler = async (tx, object, at, apply) => {
  const parsed = payoutObject.safeParse(object);
  if (!parsed.success) return { note: 'unexpected payout shape' };
  const payout = parsed.data;
  const payment = await paymentOfPayout(tx, payout.id, payout.metadata?.paymentId);
  if (!payment) return { note: `unknown payout ${payout.id}` };
  if (payment.status === 'paid') return { note: 'payment already paid' };
  if (apply) {
    await recordPayoutFailed(tx, payment.id, {
      code: payout.failure_code ?? 'unknown',
      message: payout.failure_message ?? null,
      at,
    });
  }
  return {
    followUp: {
      kind: 'payout_settled',
      paymentId: payment.id,
      settlement: { payoutId: payout.id, outcome: 'failed' },
    },
  };
};

const HANDLERS: Readonly<Record<string, Handler>> = {
  'checkout.session.completed': checkoutCompleted,
  'checkout.session.async_payment_succeeded': checkoutCompleted,
  'account.updated': accountUpdated,
  'payout.paid': payoutPaid,
  'payout.failed': payoutFailed,
};

/**
 * The database effects of an event (with `apply`), and what its workflow must do next. Without
 * `apply` nothing is written: a repeated delivery of an event whose workflow never started
 * learns what that workflow is.
 */
export async function paymentEventEffect(
  tx: Tx,
  event: PaymentEvent,
  at: Date,
  apply: boolean,
): Promise<EventEffect> {
  const handler = HANDLERS[event.type];
  if (!handler) return { note: `event type ${event.type} is not acted on` };
  return handler(tx, event.data.object, at, apply);
}
