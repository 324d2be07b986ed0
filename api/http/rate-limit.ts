import type { Context, Middleware } from 'koa';
import type { Plan } from '../../lib/domain.ts';
import type { Principal } from '../../commands/principal.ts';
import { ApiError } from '../../lib/errors.ts';
import type { RateLimitStore } from './rate-limit-store.ts';
import type { RequestState } from './state.ts';

/** Requests per minute, per the spec's Limits table. */
export const RATE_LIMITS = { unauthenticated: 30, free: 120, pro: 600, webhook: 1000 } as const;
export type RateLimitTier = keyof typeof RATE_LIMITS;

const WINDOW_MS = 60_000;
const WEBHOOK_PATHS = /^\/api\/webhooks\//;

export interface RateLimitOptions {
  readonly store: RateLimitStore;
  /** The plan of the caller's organization; callers without one are on the free tier. */
  readonly planOf: (principal: Principal) => Promise<Plan>;
  readonly now?: () => number;
}

/**
 * Counts every request against its tier: authenticated callers per credential at their
 * organization's plan, everyone else per client address. Webhooks are counted once their
 * signature is judged: a verified delivery against the route's 1,000 a minute (shared by every
 * sender), anything else against the sender's address at the unauthenticated rate, so unsigned
 * junk can neither spend the provider's budget nor go on without limit. Over the limit: 429 with
 * Retry-After in whole seconds until the window resets.
 */
export function rateLimit({ store, planOf, now = Date.now }: RateLimitOptions): Middleware<RequestState> {
  /** Counts the request under `key`; throws 429 once the window holds more than `tier` allows. */
  async function count(ctx: Context, tier: RateLimitTier, key: string): Promise<void> {
    const limit = RATE_LIMITS[tier];
    const { count, resetMs } = await store.hit(`${tier}:${key}`, WINDOW_MS, now());
    const retryAfter = setRateLimitHeaders(ctx, limit, count, resetMs);
    if (count > limit) throw tooMany(limit, retryAfter);
  }

  return async (ctx, next) => {
    if (ctx.method === 'OPTIONS') {
      await next();
      return;
    }
    if (WEBHOOK_PATHS.test(ctx.path)) {
      let admitted = false;
      ctx.state.admitWebhookDelivery = async () => {
        admitted = true;
        await count(ctx, 'webhook', ctx.path);
      };
      try {
        await next();
      } catch (error) {
        // Refused before its signature verified (or on a path with no webhook): the sender's own budget.
        if (!admitted) await count(ctx, 'unauthenticated', anonymousKeyOf(ctx));
        throw error;
      }
      return;
    }
    const principal = ctx.state.principal;
    if (!principal) await count(ctx, 'unauthenticated', anonymousKeyOf(ctx));
    else await count(ctx, await planOf(principal), principal.rateLimitKey);
    await next();
  };
}

/** Sets the RateLimit-* headers; returns Retry-After, the whole seconds left in the window. */
function setRateLimitHeaders(ctx: Context, limit: number, count: number, resetMs: number): string {
  const retryAfter = String(Math.max(1, Math.ceil(resetMs / 1000)));
  ctx.set('RateLimit-Limit', String(limit));
  ctx.set('RateLimit-Remaining', String(Math.max(0, limit - count)));
  ctx.set('RateLimit-Reset', retryAfter);
  return retryAfter;
}

const tooMany = (limit: number, retryAfter: string) =>
  new ApiError('rate_limited', `Rate limit of ${limit} requests per minute exceeded`, {
    'Retry-After': retryAfter,
  });

/** Where an anonymous request is counted: per client address (webhook refusals in a bucket of their own). */
function anonymousKeyOf(ctx: Context): string {
  return WEBHOOK_PATHS.test(ctx.path) ? `webhook-rejected:${ctx.ip}` : `ip:${ctx.ip}`;
}

/**
 * Runs before `authenticate` looks a credential up in the database (a test token, or an API token
 * this instance has not seen within its cache window): an address whose anonymous budget is spent
 * gets its 429 without the lookup. A credential that fails its lookup makes the request anonymous,
 * counted in that same budget, so a flood of made-up tokens costs at most 30 queries a minute per
 * address (plus those in flight when the budget runs out); a token that verifies spends nothing of it.
 */
export function credentialLookupGate({
  store,
  now = Date.now,
}: Pick<RateLimitOptions, 'store' | 'now'>): (ctx: Context) => Promise<void> {
  return async (ctx) => {
    const limit = RATE_LIMITS.unauthenticated;
    const { count, resetMs } = await store.peek(`unauthenticated:${anonymousKeyOf(ctx)}`, WINDOW_MS, now());
    if (count >= limit) throw tooMany(limit, setRateLimitHeaders(ctx, limit, count, resetMs));
  };
}

/**
 * Called by a webhook route once the delivery's signature is verified, before anything is recorded:
 * counts it against the route's budget, or throws 429 (nothing recorded; the provider retries).
 */
export async function admitWebhookDelivery(ctx: Context): Promise<void> {
  await (ctx.state as Partial<RequestState>).admitWebhookDelivery?.();
}
