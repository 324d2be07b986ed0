import { z } from 'zod';
import { recordWebhookEvent } from '../../db/repositories/webhooks.ts';
import { payoutPaidEvent } from '../webhooks/webhook-events.ts';
import type { Tx } from '../../db/doors.ts';
import {
  completeCheckoutSession,
  findCheckoutSession,
  markStudyPaid,
} from '../../db/repositories/checkout-sessions.ts';
import { markPaymentPaid, paymentOfPayout, recordPayoutFailed } from '../../db/repositories/payments.ts';
import { applyAccountState, payoutAccountByProviderId } from '../../db/repositories/payout-accounts.ts';
import type { PaymentFollowUp } from '../../workflows/messages/payment-events.ts';

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

type Handler = (tx: Tx, event: PaymentEvent, at: Date, apply: boolean) => Promise<EventEffect>;

/**
 * The checkout the service created, paid in full: the study is paid and its workflow is told.
 * A checkout the service did not create, or for another amount, changes nothing.
 */
const checkoutCompleted: Handler = async (tx, event, at, apply) => {
  const parsed = checkoutObject.safeParse(event.data.object);
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
  return { followUp: { kind: 'study_paid', studyId: session.study_id } };
};

/** The account's state as of the event; an event older than the last one applied changes nothing. */
const accountUpdated: Handler = async (tx, event, _at, apply) => {
  const parsed = accountObject.safeParse(event.data.object);
  if (!parsed.success) return { note: 'unexpected account shape' };
  const account = parsed.data;
  const state = {
    chargesEnabled: account.charges_enabled ?? false,
    payoutsEnabled: account.payouts_enabled ?? false,
    detailsSubmitted: account.details_submitted ?? false,
    currentlyDue: account.requirements?.currently_due ?? [],
    eventuallyDue: account.requirements?.eventually_due ?? [],
  };
  // Without `apply` (a repeat whose workflow never started) only the account's tester is needed.
  const row = apply
    ? await applyAccountState(tx, account.id, state, new Date(event.created * 1000))
    : { outcome: 'applied' as const, account: await payoutAccountByProviderId(tx, account.id) };
  if (!row.account) return { note: `unknown payout account ${account.id}` };
  if (row.outcome === 'stale') return { note: 'older than the account.updated already applied' };
  return state.payoutsEnabled
    ? { followUp: { kind: 'payout_account_ready', testerId: row.account.tester_id } }
    : {};
};

/** The payout's id and what its metadata says about the payment and attempt it belongs to. */
function readPayout(event: PaymentEvent) {
  const parsed = payoutObject.safeParse(event.data.object);
  if (!parsed.success) return undefined;
  const { metadata } = parsed.data;
  const attempt = Number(metadata?.attempt);
  return {
    ...parsed.data,
    match: {
      paymentId: metadata?.paymentId,
      attempt: Number.isInteger(attempt) && attempt > 0 ? attempt : undefined,
    },
  };
}

const payoutPaid: Handler = async (tx, event, at, apply) => {
  const payout = readPayout(event);
  if (!payout) return { note: 'unexpected payout shape' };
  const payment = await paymentOfPayout(tx, payout.id, payout.match);
  if (!payment) return { note: `unknown payout ${payout.id}` };
  const followUp = {
    followUp: {
      kind: 'payout_settled' as const,
      paymentId: payment.id,
      settlement: { payoutId: payout.id, outcome: 'paid' as const },
    },
  };
  // A recorded event whose workflow never started: what it did is in the row, the workflow is due.
  if (!apply) return payment.status === 'paid' && payment.provider_payout_id === payout.id ? followUp : {};
  if (payment.status === 'paid') return { note: 'payment already paid' };
  if (payment.status === 'failed' && payment.provider_payout_id === payout.id) {
    return { note: 'the provider reported this payout failed: a failed payout is never paid' };
  }
  const paid = await markPaymentPaid(tx, payment.id, { payoutId: payout.id, paidAt: at });
  if (!paid) return { note: 'payment already settled' };
  // Its deliveries are started by whoever follows up (the event's workflow, the payout's poll).
  await recordWebhookEvent(tx, payoutPaidEvent(paid, at));
  return followUp;
};

/**
 * A failure of the payment's current payout (or of a newer one its activity has not recorded
 * yet) fails the payment, even one reported paid before: the bank can return a payout after it
 * was paid. The same failure reported again changes nothing; an earlier attempt's payout is stale.
 */
const payoutFailed: Handler = async (tx, event, at, apply) => {
  const payout = readPayout(event);
  if (!payout) return { note: 'unexpected payout shape' };
  const payment = await paymentOfPayout(tx, payout.id, payout.match);
  if (!payment) return { note: `unknown payout ${payout.id}` };
  const failedAlready = payment.status === 'failed' && payment.provider_payout_id === payout.id;
  const followUp = {
    followUp: {
      kind: 'payout_settled' as const,
      paymentId: payment.id,
      settlement: { payoutId: payout.id, outcome: 'failed' as const },
    },
  };
  if (!apply) return failedAlready ? followUp : {};
  if (failedAlready) return { note: 'payout already recorded as failed' };
  if (payment.status === 'paid' && payment.provider_payout_id !== payout.id) {
    return { note: 'payment already paid by another payout' };
  }
  await recordPayoutFailed(tx, payment.id, {
    payoutId: payout.id,
    ...(payout.match.attempt === undefined ? {} : { attempt: payout.match.attempt }),
    code: payout.failure_code ?? 'unknown',
    message: payout.failure_message ?? null,
    at,
  });
  return followUp;
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
  return handler(tx, event, at, apply);
}
