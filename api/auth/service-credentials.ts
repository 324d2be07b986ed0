import type { Context } from 'koa';
import { unauthenticated } from '../http/errors.ts';
import { constantTimeEqual, sha256Hex } from './secrets.ts';

// The spec's other header methods (Authentication, "Other header methods"), for routes that are
// not called by users. Each answers 401 when the credential is absent or wrong; comparisons are
// constant-time over fixed-length digests so neither content nor length leaks.

const sameSecret = (given: string, expected: string) =>
  constantTimeEqual(sha256Hex(given), sha256Hex(expected));

/** `x-webhook-secret: <WEBHOOK_SECRET>`: incoming webhooks whose sender cannot sign (the messaging bot). */
export function requireWebhookSecret(ctx: Context, secret: string): void {
  const given = ctx.get('x-webhook-secret');
  if (!given || !sameSecret(given, secret)) throw unauthenticated('Webhook secret missing or invalid');
}

/** `Authorization: Bearer <CRON_SECRET>`: scheduled-job endpoints. */
export function requireCronSecret(ctx: Context, secret: string): void {
  const given = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
  if (!given || !sameSecret(given, secret)) throw unauthenticated('Scheduler credential missing or invalid');
}

/** `Authorization: Token <TOKEN>`: server-to-server calls (for example the facial analysis engine). */
export function requireServiceToken(ctx: Context, tokens: readonly string[]): void {
  const given = /^Token\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
  // Every configured token is compared, so the time taken does not depend on which one matched.
  const matches = given ? tokens.map((token) => sameSecret(given, token)).includes(true) : false;
  if (!matches) throw unauthenticated('Service token missing or invalid');
}
