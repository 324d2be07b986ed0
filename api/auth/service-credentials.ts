import type { Context } from 'koa';
import { ApiError, unauthenticated } from '../../lib/errors.ts';
import type { ServiceCredential } from '../http/route.ts';
import { constantTimeEqual, sha256Hex } from '../../lib/secrets.ts';

// The spec's other header methods (Authentication, "Other header methods"), for routes that are
// not called by users. Each answers 401 when the credential is absent or wrong; comparisons are
// constant-time over fixed-length digests so neither content nor length leaks.

const sameSecret = (given: string, expected: string) =>
  constantTimeEqual(sha256Hex(given), sha256Hex(expected));

/** The header the spec names for webhook secrets. */
export const WEBHOOK_SECRET_HEADER = 'x-webhook-secret';
/** The header the messaging channel's bot API itself sends the webhook's `secret_token` in. */
export const BOT_API_SECRET_HEADER = 'X-Telegram-Bot-Api-Secret-Token';

/** `x-webhook-secret: <WEBHOOK_SECRET>` (or another header that carries it): senders that cannot sign. */
export function requireWebhookSecret(
  ctx: Context,
  secret: string,
  headers: readonly string[] = [WEBHOOK_SECRET_HEADER],
): void {
  const given = headers.map((header) => ctx.get(header)).find(Boolean);
  if (!given || !sameSecret(given, secret)) throw unauthenticated('Webhook secret missing or invalid');
}

/** `Authorization: Bearer <CRON_SECRET>`: scheduled-job endpoints. */
export function requireCronSecret(ctx: Context, secret: string): void {
  const given = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
  if (!given || !sameSecret(given, secret)) throw unauthenticated('Scheduler credential missing or invalid');
}

/** `Authorization: Token <TOKEN>`: server-to-server calls (monitoring, operators' tools). */
export function requireServiceToken(ctx: Context, tokens: readonly string[]): void {
  const given = /^Token\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
  // Every configured token is compared, so the time taken does not depend on which one matched.
  const matches = given ? tokens.map((token) => sameSecret(given, token)).includes(true) : false;
  if (!matches) throw unauthenticated('Service token missing or invalid');
}

const notConfigured = (variable: string) =>
  new ApiError('unavailable', `This endpoint is off: ${variable} is not configured`);

// The same checks as route credentials (api/http/route.ts): an endpoint whose secret is unset is
// off (503 naming the variable) rather than open.

/** The messaging bot's webhook: `x-webhook-secret`, or the bot API's own secret-token header. */
export function messagingWebhookCredential(secret: string | undefined): ServiceCredential {
  return {
    scheme: 'webhookSecret',
    verify: (ctx) => {
      if (!secret) throw notConfigured('MESSAGING_WEBHOOK_SECRET');
      requireWebhookSecret(ctx, secret, [WEBHOOK_SECRET_HEADER, BOT_API_SECRET_HEADER]);
    },
  };
}

export function cronCredential(secret: string | undefined): ServiceCredential {
  return {
    scheme: 'cronSecret',
    verify: (ctx) => {
      if (!secret) throw notConfigured('CRON_SECRET');
      requireCronSecret(ctx, secret);
    },
  };
}

export function serviceTokenCredential(tokens: readonly string[]): ServiceCredential {
  return {
    scheme: 'serviceToken',
    verify: (ctx) => {
      if (tokens.length === 0) throw notConfigured('SERVICE_TOKENS');
      requireServiceToken(ctx, tokens);
    },
  };
}
