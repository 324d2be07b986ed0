import { localEvent, postProviderEvent, type ProviderEvent } from '../../clients/payments/provider-events.ts';
import { asSystem } from '../../db/doors.ts';
import { findCheckoutSession } from '../../db/repositories/checkout-sessions.ts';
import { payoutAccountByProviderId } from '../../db/repositories/payout-accounts.ts';
import { ApiError, conflict, notFound } from '../../lib/errors.ts';
import type { CommandContext } from '../context.ts';

// The local provider's hosted pages (no payment credentials). Like the provider's, they change
// nothing themselves: each posts the provider's signed event to the real webhook route over HTTP,
// and the route does the rest.

function requireLocal(deps: CommandContext, what: string): void {
  if (deps.config.payments.mode !== 'local') throw notFound(what);
}

async function post(deps: CommandContext, event: ProviderEvent): Promise<void> {
  try {
    await postProviderEvent(deps.config.payments.localWebhookUrl, deps.config.payments.webhookSecret, event);
  } catch (error) {
    throw new ApiError(
      'unavailable',
      `The webhook route did not take ${event.type}: ${(error as Error).message}`,
    );
  }
}

/** Pays a local checkout session: `checkout.session.completed`, as the provider would send it. */
export async function completeLocalCheckout(deps: CommandContext, id: string) {
  requireLocal(deps, 'Checkout session');
  const session = await asSystem(deps.db, (tx) => findCheckoutSession(tx, id));
  if (!session || session.provider !== 'local') throw notFound('Checkout session');
  const answer = { checkoutSessionId: id, jobId: session.study_id, status: 'complete' as const };
  if (session.status === 'complete') return answer;
  if (session.status === 'expired' || session.expires_at <= deps.now())
    throw conflict('Checkout session expired');
  await post(
    deps,
    localEvent('checkout.session.completed', {
      id,
      object: 'checkout.session',
      mode: 'payment',
      amount_total: Number(session.amount_total),
      currency: session.currency.toLowerCase(),
      client_reference_id: session.study_id,
      metadata: { jobId: session.study_id },
      payment_status: 'paid',
      status: 'complete',
    }),
  );
  return answer;
}

/** Finishes local onboarding: `account.updated` with payouts enabled and nothing due. */
export async function completeLocalOnboarding(deps: CommandContext, accountId: string, returnUrl?: string) {
  requireLocal(deps, 'Payout account');
  const account = await asSystem(deps.db, (tx) => payoutAccountByProviderId(tx, accountId));
  if (!account) throw notFound('Payout account');
  await post(
    deps,
    localEvent(
      'account.updated',
      {
        id: accountId,
        object: 'account',
        charges_enabled: true,
        payouts_enabled: true,
        details_submitted: true,
        requirements: { currently_due: [], eventually_due: [] },
      },
      { account: accountId },
    ),
  );
  return { accountId, payoutsEnabled: true, returnUrl: returnUrl ?? null };
}
