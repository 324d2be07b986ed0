import { createHmac } from 'node:crypto';

// The HMAC-SHA256 scheme of every signed webhook, incoming (payments, scheduling) and outgoing
// (organizations' endpoints): the payment provider's, `t=<unix seconds>,v1=<hex>`.

/** The hex HMAC-SHA256 of `<timestamp>.<raw body>` under `secret`. */
export const hmacHex = (secret: string, timestamp: string, rawBody: Buffer) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');

/**
 * The header value a sender computes: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.rawBody">`.
 * Signing the timestamp with the body is what makes replay protection possible.
 */
export function signWebhook(rawBody: Buffer | string, secret: string, now: Date = new Date()): string {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, Buffer.from(rawBody))}`;
}
