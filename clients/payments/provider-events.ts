import { createHash } from 'node:crypto';
import Stripe from 'stripe';

/**
 * The header the provider signs its deliveries in (its own wire format; the route also reads the
 * spec's `Payment-Signature`, same scheme).
 */
export const STRIPE_SIGNATURE_HEADER = 'Stripe-Signature';

/** An event in the provider's shape: id, type, created, and the object concerned. */
export interface ProviderEvent {
  readonly id: string;
  readonly object: 'event';
  readonly type: string;
  readonly created: number;
  readonly livemode: false;
  /** The connected account the event happened on (payouts, account changes). */
  readonly account?: string;
  readonly data: { readonly object: Record<string, unknown> };
}

/** A stable id from a stable input: the same local fact always becomes the same object or event. */
export const localId = (prefix: string, ...parts: string[]): string =>
  `${prefix}_local_${createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 24)}`;

export function localEvent(
  type: string,
  object: Record<string, unknown>,
  options: { account?: string; now?: Date } = {},
): ProviderEvent {
  return {
    id: localId('evt', type, String(object.id)),
    object: 'event',
    type,
    created: Math.floor((options.now ?? new Date()).getTime() / 1000),
    livemode: false,
    ...(options.account ? { account: options.account } : {}),
    data: { object },
  };
}

// Only the webhooks helper of the SDK is used here; it needs no key.
const signer = new Stripe('sk_local_signing_only');

/**
 * Posts the event to the webhook route the way the provider does: the raw JSON body signed with
 * the provider's own scheme (the SDK's signer, so the route verifies it with the SDK). Throws on
 * anything but 2xx, so the caller retries as the provider would.
 */
export async function postProviderEvent(url: string, secret: string, event: ProviderEvent): Promise<void> {
  const payload = JSON.stringify(event);
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret });
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [STRIPE_SIGNATURE_HEADER]: signature },
    body: payload,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`Webhook route answered ${response.status} to ${event.type}: ${text.slice(0, 200)}`);
  }
}

/** The signature is absent, stale, or does not match the body and secret. */
export class SignatureRejected extends Error {
  override readonly name = 'SignatureRejected';
}

/**
 * Verifies a payment event's signature over the raw body with the provider SDK's own scheme (HMAC-SHA256
 * of `t.body`, constant-time comparison, timestamp tolerance) and returns the parsed event. The
 * provider signs the platform's events and those of connected accounts (Connect) at two endpoints
 * with two secrets, so each configured secret is tried; none matching is a rejection.
 */
export function verifyProviderEvent(
  rawBody: Buffer,
  header: string | undefined,
  secrets: readonly string[],
  toleranceSeconds: number,
): unknown {
  if (!header) throw new SignatureRejected('Webhook signature missing');
  let rejection: Error | undefined;
  for (const secret of secrets) {
    try {
      return signer.webhooks.constructEvent(rawBody, header, secret, toleranceSeconds);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error;
      rejection = error;
    }
  }
  throw new SignatureRejected(
    `Webhook signature rejected: ${rejection?.message.split('\n')[0] ?? 'no signing secret configured'}`,
  );
}
