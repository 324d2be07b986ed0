import Stripe from 'stripe';
import type { PaymentsConfig } from '../../config/payments.ts';
import {
  movementMetadata,
  PaymentProviderRefused,
  PaymentProviderUnavailable,
  type CheckoutRequest,
  type MoneyMovement,
  type PaymentProvider,
  type PayoutState,
} from './provider.ts';

/** The SDK client, pointed at STRIPE_API_BASE when one is configured (tests, mocks). */
export function createStripeClient(config: PaymentsConfig): Stripe {
  if (!config.secretKey) throw new Error('STRIPE_SECRET_KEY is not set');
  return new Stripe(config.secretKey, {
    maxNetworkRetries: config.maxNetworkRetries,
    timeout: config.timeoutMs,
    telemetry: false,
    ...(config.api ?? {}),
  });
}

/**
 * The payment provider's API through its own SDK. Every write carries an idempotency key, so the
 * SDK's network retries and our activity retries are answered by the provider, never repeated.
 */
export function createStripeProvider(stripe: Stripe): PaymentProvider {
  return {
    name: 'stripe',
    checkoutOrigin: 'https://checkout.stripe.com',

    createCheckout: (request: CheckoutRequest) =>
      call(async () => {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            client_reference_id: request.jobId,
            metadata: { jobId: request.jobId, organizationId: request.organizationId },
            payment_intent_data: { metadata: { jobId: request.jobId } },
            line_items: [
              {
                quantity: request.quantity,
                price_data: {
                  currency: request.currency.toLowerCase(),
                  unit_amount: request.unitAmount,
                  product_data: { name: `Usability study: ${request.title}`.slice(0, 250) },
                },
              },
            ],
            ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
          },
          { idempotencyKey: request.idempotencyKey },
        );
        if (!session.url || session.amount_total == null) {
          throw new PaymentProviderUnavailable('The checkout session came back without a URL or total');
        }
        return {
          id: session.id,
          url: session.url,
          amountTotal: session.amount_total,
          currency: (session.currency ?? request.currency).toUpperCase(),
          expiresAt: new Date(session.expires_at * 1000),
        };
      }),

    createConnectedAccount: (request) =>
      call(async () => {
        const account = await stripe.accounts.create(
          {
            type: 'express',
            email: request.email,
            capabilities: { transfers: { requested: true } },
            // Payouts are sent one per session, so each can be matched to its payout event.
            settings: { payouts: { schedule: { interval: 'manual' } } },
            metadata: { testerId: request.testerId },
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return { accountId: account.id };
      }),

    createOnboardingLink: (request) =>
      call(async () => {
        const link = await stripe.accountLinks.create({
          account: request.accountId,
          type: 'account_onboarding',
          return_url: request.returnUrl,
          refresh_url: request.refreshUrl,
        });
        return { url: link.url };
      }),

    transfer: (movement: MoneyMovement) =>
      call(async () => {
        const transfer = await stripe.transfers.create(
          {
            amount: movement.amount,
            currency: movement.currency.toLowerCase(),
            destination: movement.accountId,
            transfer_group: `session:${movement.sessionId}`,
            metadata: movementMetadata(movement),
          },
          { idempotencyKey: movement.idempotencyKey },
        );
        return { transferId: transfer.id };
      }),

    payout: (movement: MoneyMovement) =>
      call(async () => {
        const payout = await stripe.payouts.create(
          {
            amount: movement.amount,
            currency: movement.currency.toLowerCase(),
            metadata: movementMetadata(movement),
            statement_descriptor: 'USABILITY SESSION',
          },
          { idempotencyKey: movement.idempotencyKey, stripeAccount: movement.accountId },
        );
        return { payoutId: payout.id };
      }),

    payoutState: ({ accountId, payoutId }) =>
      call(async () => {
        const payout = await stripe.payouts.retrieve(payoutId, {}, { stripeAccount: accountId });
        return {
          status: payoutStatus(payout.status),
          failureCode: payout.failure_code,
          failureMessage: payout.failure_message,
        };
      }),
  };
}

const PAYOUT_STATUSES: readonly PayoutState['status'][] = [
  'pending',
  'in_transit',
  'paid',
  'failed',
  'canceled',
];

/** A status the provider adds later is read as not settled yet: asked again, never guessed. */
const payoutStatus = (status: string): PayoutState['status'] =>
  PAYOUT_STATUSES.find((known) => known === status) ?? 'pending';

/** SDK errors in the service's two kinds: try again later, or the provider said no. */
async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    const transient =
      error instanceof Stripe.errors.StripeConnectionError ||
      error instanceof Stripe.errors.StripeAPIError ||
      error instanceof Stripe.errors.StripeRateLimitError ||
      (error.statusCode ?? 0) >= 500;
    if (transient) throw new PaymentProviderUnavailable(`Payment provider unavailable: ${error.message}`);
    throw new PaymentProviderRefused(`Payment provider refused: ${error.message}`, error.code);
  }
}
