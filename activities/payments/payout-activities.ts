import { ApplicationFailure, Context } from '@temporalio/activity';
import { announceEvent } from '../webhooks/announce.ts';
import { payoutPaidKey } from '../../lib/webhook-keys.ts';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import {
  findPayment,
  recordPayoutFailed,
  recordPayoutSent,
  recordRetryQueued,
  recordTransfer,
  waitingPaymentIdsOfTester,
  type PaymentRow,
} from '../../db/repositories/payments.ts';
import { payoutAccountOfTester } from '../../db/repositories/payout-accounts.ts';
import { toMinorUnits, UnrepresentableAmount } from '../../lib/money.ts';
import {
  PaymentProviderRefused,
  type MoneyMovement,
  type PaymentProvider,
  type PayoutState,
} from '../../clients/payments/provider.ts';
import { paymentEventEffect, type PaymentEvent } from '../../commands/billing/payment-event-effects.ts';
import { PAYMENT_NOT_FOUND } from '../../lib/failures.ts';

/** Named so the workflow never retries it: the payment row is gone. */
const HEARTBEAT_MS = 2_000;

export interface PayoutActivityDependencies {
  readonly db: Db;
  readonly provider: PaymentProvider;
}

export type SendPayoutResult =
  | { readonly outcome: 'sent'; readonly payoutId: string }
  | { readonly outcome: 'refused'; readonly code: string; readonly message: string }
  | { readonly outcome: 'account_not_ready' }
  | { readonly outcome: 'paid' };

/** A payout the provider has settled, as its event type names it; undefined while it is on its way. */
const settlementOf = (status: PayoutState['status']): 'paid' | 'failed' | undefined => {
  if (status === 'paid') return 'paid';
  if (status === 'failed' || status === 'canceled') return 'failed';
  return undefined;
};

/** The idempotency key of one step of one attempt: the same attempt always sends the same key. */
export const payoutKey = (paymentId: string, attempt: number, step: 'transfer' | 'payout') =>
  `payout:${paymentId}:${attempt}:${step}`;

/** The money-moving side of the payout workflow. */
export function createPayoutActivities({ db, provider }: PayoutActivityDependencies) {
  const load = async (paymentId: string): Promise<PaymentRow> => {
    const payment = await asSystem(db, (tx) => findPayment(tx, paymentId));
    if (!payment) throw ApplicationFailure.nonRetryable(`Payment ${paymentId} not found`, PAYMENT_NOT_FOUND);
    return payment;
  };

  return {
    /**
     * Where the payment stands when a payout workflow starts: attempts count on from here, and a
     * payout still processing (its workflow was lost or restarted) is waited for, not repeated.
     */
    async preparePayout({ paymentId }: { paymentId: string }) {
      const payment = await load(paymentId);
      return { status: payment.status, attempts: payment.attempts, payoutId: payment.provider_payout_id };
    },

    /**
     * One attempt: the platform's transfer into the tester's connected account (once per
     * payment), then the payout to their bank, each with the attempt's idempotency key. A worker
     * that dies after the provider acted and before the payment was recorded is retried with the
     * same keys, and the provider answers with the payout it already made.
     */
    async sendPayout({
      paymentId,
      attempt,
    }: {
      paymentId: string;
      attempt: number;
    }): Promise<SendPayoutResult> {
      const context = Context.current();
      const payment = await load(paymentId);
      if (payment.status === 'paid') return { outcome: 'paid' };
      const account = await asSystem(db, (tx) => payoutAccountOfTester(tx, payment.tester_id));
      if (!account?.payouts_enabled) return { outcome: 'account_not_ready' };
      const refuse = async (code: string, message: string): Promise<SendPayoutResult> => {
        await asSystem(db, (tx) =>
          recordPayoutFailed(tx, paymentId, { attempt, code, message, at: new Date() }),
        );
        return { outcome: 'refused', code, message };
      };

      let amount: number;
      try {
        amount = toMinorUnits(payment.amount, payment.currency, 'payout');
      } catch (error) {
        if (error instanceof UnrepresentableAmount) return refuse('amount_unrepresentable', error.message);
        throw error;
      }
      const movement = (step: 'transfer' | 'payout'): MoneyMovement => ({
        paymentId,
        sessionId: payment.session_id,
        attempt,
        accountId: account.provider_account_id,
        amount,
        currency: payment.currency,
        idempotencyKey: payoutKey(paymentId, attempt, step),
      });

      // The provider may take seconds; the heartbeat tells Temporal the worker is still alive, so
      // a dead worker's attempt is retried after the heartbeat timeout, not the whole timeout.
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_MS);
      try {
        if (!payment.provider_transfer_id) {
          const { transferId } = await provider.transfer(movement('transfer'));
          await asSystem(db, (tx) => recordTransfer(tx, paymentId, transferId));
        }
        const { payoutId } = await provider.payout(movement('payout'));
        await asSystem(db, (tx) => recordPayoutSent(tx, paymentId, { payoutId, attempt }));
        return { outcome: 'sent', payoutId };
      } catch (error) {
        // A refusal is an attempt that failed; unavailability is retried by Temporal with the same keys.
        if (error instanceof PaymentProviderRefused) return refuse(error.code ?? 'refused', error.message);
        throw error;
      } finally {
        clearInterval(beat);
      }
    },

    /**
     * Records when the next attempt runs, `delayMs` after the recorded failure (null: no retry is
     * queued), and returns that time for the admins' alert.
     */
    async recordPayoutRetry({
      paymentId,
      delayMs,
    }: {
      paymentId: string;
      delayMs: number | null;
    }): Promise<{ retryAt: string | null }> {
      const at = await asSystem(db, (tx) => recordRetryQueued(tx, paymentId, delayMs));
      return { retryAt: at?.toISOString() ?? null };
    },

    /**
     * Asks the provider where a payout stands when its event is late, and settles the payment from
     * the answer by the same rules as the event would (commands/billing/payment-event-effects.ts):
     * a failed payout is never paid, a payment already settled is left alone. `pending` means the
     * provider has not settled it yet (pending or in transit); the workflow asks again later.
     */
    async checkPayout({
      paymentId,
      payoutId,
      attempt,
    }: {
      paymentId: string;
      payoutId: string;
      attempt: number;
    }): Promise<'paid' | 'failed' | 'pending'> {
      const payment = await load(paymentId);
      const account = await asSystem(db, (tx) => payoutAccountOfTester(tx, payment.tester_id));
      // The account a sent payout went to cannot be gone; if it is, nobody can ask: not settled.
      if (!account) return 'pending';
      let state: PayoutState;
      try {
        state = await provider.payoutState({ accountId: account.provider_account_id, payoutId });
      } catch (error) {
        // A refusal (the payout or the account unknown there) will not change by asking again
        // this minute: not settled, asked again tomorrow, and the admins told at the end of the wait.
        if (!(error instanceof PaymentProviderRefused)) throw error;
        Context.current().log.warn('The provider refused to say where a payout stands', {
          paymentId,
          payoutId,
          code: error.code,
        });
        return 'pending';
      }
      const settled = settlementOf(state.status);
      if (!settled) return 'pending';
      const asked: PaymentEvent = {
        id: `asked:${payoutId}`,
        type: `payout.${settled}`,
        created: Math.floor(Date.now() / 1000),
        data: {
          object: {
            id: payoutId,
            failure_code: state.failureCode ?? (state.status === 'canceled' ? 'canceled' : null),
            failure_message: state.failureMessage,
            metadata: { paymentId, attempt: String(attempt) },
          },
        },
      };
      await asSystem(db, (tx) => paymentEventEffect(tx, asked, new Date(), true));
      const after = await load(paymentId);
      const current = after.provider_payout_id === payoutId;
      if (current && after.status === 'paid') {
        await announceEvent(db, payoutPaidKey(payoutId));
        return 'paid';
      }
      if (current && after.status === 'failed') return 'failed';
      return settled;
    },

    /** Payments of the tester that waited for a payout account able to receive money. */
    async paymentsAwaitingAccount({ testerId }: { testerId: string }): Promise<string[]> {
      return asSystem(db, (tx) => waitingPaymentIdsOfTester(tx, testerId));
    },
  };
}

export type PayoutActivities = ReturnType<typeof createPayoutActivities>;
