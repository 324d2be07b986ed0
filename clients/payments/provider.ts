// What the service asks of a payment provider. Two implementations: the provider's API through
// its SDK (stripe-provider.ts) and the local stand-in used without credentials (local-provider.ts).

export interface CheckoutRequest {
  readonly jobId: string;
  readonly organizationId: string;
  readonly title: string;
  /** ISO 4217, upper case. */
  readonly currency: string;
  /** One completed session's compensation, in minor units. */
  readonly unitAmount: number;
  /** The study's tester count. */
  readonly quantity: number;
  readonly customerEmail: string | undefined;
  readonly successUrl: string;
  readonly cancelUrl: string;
  readonly idempotencyKey: string;
}

export interface CreatedCheckout {
  readonly id: string;
  readonly url: string;
  /** Minor units, as the provider computed it. */
  readonly amountTotal: number;
  readonly currency: string;
  readonly expiresAt: Date;
}

export interface ConnectedAccountRequest {
  readonly testerId: string;
  readonly email: string;
  readonly idempotencyKey: string;
}

export interface OnboardingLinkRequest {
  readonly accountId: string;
  readonly returnUrl: string;
  /** Where the provider sends the tester when the link has expired. */
  readonly refreshUrl: string;
}

/** Money moved for one payment: a transfer into the tester's account, or a payout to their bank. */
export interface MoneyMovement {
  readonly paymentId: string;
  readonly sessionId: string;
  /** The payout attempt, carried in the metadata so a payout event can be matched before it is recorded. */
  readonly attempt: number;
  readonly accountId: string;
  /** Minor units. */
  readonly amount: number;
  readonly currency: string;
  /** The same key for the same attempt, so a retried call is answered, not repeated. */
  readonly idempotencyKey: string;
}

/**
 * What a transfer or payout carries in its metadata, read back from its events: the payment and
 * attempt a payout event settles (db/repositories/payments.ts, paymentOfPayout).
 */
export const movementMetadata = (movement: MoneyMovement): Record<string, string> => ({
  paymentId: movement.paymentId,
  sessionId: movement.sessionId,
  attempt: String(movement.attempt),
});

/** What the provider says of one payout when asked (its statuses, as its payout object names them). */
export interface PayoutState {
  readonly status: 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled';
  readonly failureCode: string | null;
  readonly failureMessage: string | null;
}

export interface PaymentProvider {
  readonly name: 'stripe' | 'local';
  /** Where its checkout pages are: a page's form that leads there must be allowed to (CSP `form-action`). */
  readonly checkoutOrigin: string;
  createCheckout(request: CheckoutRequest): Promise<CreatedCheckout>;
  createConnectedAccount(request: ConnectedAccountRequest): Promise<{ accountId: string }>;
  createOnboardingLink(request: OnboardingLinkRequest): Promise<{ url: string }>;
  /** From the platform's balance to the connected account. */
  transfer(request: MoneyMovement): Promise<{ transferId: string }>;
  /** From the connected account's balance to the tester's bank; settles later by a payout event. */
  payout(request: MoneyMovement): Promise<{ payoutId: string }>;
  /** Where a payout stands: asked when its event is late (workflows/payout.ts). */
  payoutState(request: { accountId: string; payoutId: string }): Promise<PayoutState>;
}

/** The provider could not be reached or answered nonsense: worth retrying later. */
export class PaymentProviderUnavailable extends Error {
  override readonly name = 'PaymentProviderUnavailable';
}

/** The provider refused the request (its 4xx): retrying the same request will not help. */
export class PaymentProviderRefused extends Error {
  override readonly name = 'PaymentProviderRefused';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}
