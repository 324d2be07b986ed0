import { timingSafeEqual } from 'node:crypto';
import { STRIPE_SIGNATURE_HEADER } from '../../clients/payments/provider-events.ts';
import { unauthenticated } from '../../lib/errors.ts';
import { hmacHex } from '../../lib/webhook-signing.ts';

/** Header names of the spec's signed webhooks. */
export const PAYMENT_SIGNATURE_HEADER = 'Payment-Signature';
export const SCHEDULING_SIGNATURE_HEADER = 'Scheduling-Webhook-Signature';
/**
 * The scheduling provider's own name for the same signature, in the same scheme: Calendly signs
 * its deliveries in `Calendly-Webhook-Signature` (docs/decisions/payments.md).
 */
export const CALENDLY_SIGNATURE_HEADER = 'Calendly-Webhook-Signature';

/** Where each webhook's signature is read, first present first: the spec's header, then the provider's. */
export const PAYMENT_SIGNATURE_HEADERS = [PAYMENT_SIGNATURE_HEADER, STRIPE_SIGNATURE_HEADER] as const;
export const SCHEDULING_SIGNATURE_HEADERS = [SCHEDULING_SIGNATURE_HEADER, CALENDLY_SIGNATURE_HEADER] as const;

/** The value of the first of `names` the request carries (`get` answers '' for an absent header). */
export function signatureHeader(get: (name: string) => string, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = get(name);
    if (value) return value;
  }
  return undefined;
}

/** Signatures older (or further in the future) than this are refused: a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export { signWebhook } from '../../lib/webhook-signing.ts';

export interface WebhookSignatureCheck {
  /** The signature header's value; undefined or empty when absent. */
  readonly header: string | undefined;
  /** The body exactly as received: no parser may have touched it. */
  readonly rawBody: Buffer;
  /** The shared secret, or several while one is being rotated. */
  readonly secrets: string | readonly string[];
  readonly now?: Date;
  readonly toleranceSeconds?: number;
}

/**
 * Verifies an HMAC-SHA256 webhook signature over the raw body with constant-time comparison.
 * Throws the API's 401 on an absent or malformed header, a stale timestamp or a mismatch.
 * Event ids must still be deduplicated by the route: a replay within the tolerance verifies.
 */
export function verifyWebhookSignature(check: WebhookSignatureCheck): void {
  if (!check.header) throw unauthenticated('Webhook signature missing');
  const fields = check.header.split(',').map((part) => part.trim().split('=', 2) as [string, string?]);
  const timestamp = fields.find(([key]) => key === 't')?.[1];
  const signatures = fields.filter(([key, value]) => key === 'v1' && value).map(([, value]) => value!);
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0) {
    throw unauthenticated('Webhook signature malformed');
  }
  const nowSeconds = Math.floor((check.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (check.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) {
    throw unauthenticated('Webhook signature timestamp outside the tolerance');
  }
  const secrets = typeof check.secrets === 'string' ? [check.secrets] : check.secrets;
  const matches = secrets.some((secret) => {
    const expected = Buffer.from(hmacHex(secret, timestamp, check.rawBody), 'hex');
    return signatures.some((signature) => {
      const given = Buffer.from(signature, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  });
  if (!matches) throw unauthenticated('Webhook signature mismatch');
}
