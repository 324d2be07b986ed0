import { localEvent, localId, type ProviderEvent } from './provider-events.ts';
import {
  movementMetadata,
  type CheckoutRequest,
  type MoneyMovement,
  type PaymentProvider,
} from './provider.ts';

/** How long after a local payout its `payout.paid` event arrives (the provider's arrival, shortened). */
export const LOCAL_PAYOUT_ARRIVAL_SECONDS = 3;
const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface LocalProviderOptions {
  /** The service's own origin: local checkout and onboarding pages are served by the API. */
  readonly baseUrl: string;
  /**
   * Mixed into every id (the local signing secret): ids stay stable for the same request across
   * processes, as the provider's idempotency layer answers, but cannot be computed from a study id
   * alone where the secret is not the public development one.
   */
  readonly secret: string;
  /**
   * Delivers a provider event to the webhook route after a delay, durably (a workflow in the
   * worker). Only payouts need it; the API's local provider has none.
   */
  readonly emitLater?: (event: ProviderEvent, delaySeconds: number) => Promise<void>;
}

/**
 * The payment provider's stand-in when no credentials are configured. Objects get ids derived
 * from the idempotency key, so a repeated request returns the same object (as the provider's
 * idempotency layer does). Checkout and onboarding complete on pages the API serves, which post
 * signed events to the webhook route; payouts settle by a signed `payout.paid` a moment later.
 * Nothing changes the service's records except those events.
 */
export function createLocalProvider(options: LocalProviderOptions): PaymentProvider {
  const billing = `${options.baseUrl}/api/billing`;
  const idOf = (prefix: string, key: string) => localId(prefix, options.secret, key);
  return {
    name: 'local',
    checkoutOrigin: new URL(options.baseUrl).origin,

    createCheckout(request: CheckoutRequest) {
      const id = idOf('cs', request.idempotencyKey);
      return Promise.resolve({
        id,
        // A page for people (pay or cancel); scripts pay through GET /api/billing/local-checkout/:id.
        url: `${options.baseUrl}/billing/local-checkout/${id}`,
        amountTotal: request.unitAmount * request.quantity,
        currency: request.currency.toUpperCase(),
        expiresAt: new Date(Date.now() + CHECKOUT_LIFETIME_MS),
      });
    },

    createConnectedAccount: (request) => Promise.resolve({ accountId: idOf('acct', request.idempotencyKey) }),

    createOnboardingLink(request) {
      const returnUrl = encodeURIComponent(request.returnUrl);
      return Promise.resolve({
        url: `${billing}/local-onboarding/${request.accountId}?returnUrl=${returnUrl}`,
      });
    },

    transfer: (movement: MoneyMovement) =>
      Promise.resolve({ transferId: idOf('tr', movement.idempotencyKey) }),

    async payout(movement: MoneyMovement) {
      if (!options.emitLater) throw new Error('The local provider pays out only inside the worker');
      const payoutId = idOf('po', movement.idempotencyKey);
      const arrival = Math.floor(Date.now() / 1000) + LOCAL_PAYOUT_ARRIVAL_SECONDS;
      const paid = localEvent(
        'payout.paid',
        {
          id: payoutId,
          object: 'payout',
          amount: movement.amount,
          currency: movement.currency.toLowerCase(),
          arrival_date: arrival,
          status: 'paid',
          destination: localId('ba', movement.accountId),
          metadata: movementMetadata(movement),
        },
        { account: movement.accountId },
      );
      await options.emitLater(paid, LOCAL_PAYOUT_ARRIVAL_SECONDS);
      return { payoutId };
    },

    // Every local payout is paid: its event is delivered durably a moment after it is made.
    payoutState: () => Promise.resolve({ status: 'paid', failureCode: null, failureMessage: null }),
  };
}
