import type { Middleware } from 'koa';
import type { Plan } from '../../db/schema.ts';
import type { Principal } from '../auth/principal.ts';
import { ApiError } from './errors.ts';
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
 * Counts every request against its tier: webhooks per route, authenticated callers per credential
 * at their organization's plan, everyone else per client address. Over the limit: 429 with
 * Retry-After in whole seconds until the window resets.
 */
export function rateLimit({ store, planOf, now = Date.now }: RateLimitOptions): Middleware<RequestState> {
  return async (ctx, next) => {
    if (ctx.method === 'OPTIONS') {
      await next();
      return;
    }
    const { tier, key } = await classify(ctx.path, ctx.ip, ctx.state.principal, planOf);
    const limit = RATE_LIMITS[tier];
    const { count, resetMs } = await store.hit(`${tier}:${key}`, WINDOW_MS, now());
    const retryAfter = String(Math.max(1, Math.ceil(resetMs / 1000)));
    ctx.set('RateLimit-Limit', String(limit));
    ctx.set('RateLimit-Remaining', String(Math.max(0, limit - count)));
    ctx.set('RateLimit-Reset', retryAfter);
    if (count > limit) {
      throw new ApiError('rate_limited', `Rate limit of ${limit} requests per minute exceeded`, {
        'Retry-After': retryAfter,
      });
    }
    await next();
  };
}

async function classify(
  path: string,
  address: string,
  principal: Principal | null,
  planOf: RateLimitOptions['planOf'],
): Promise<{ tier: RateLimitTier; key: string }> {
  if (WEBHOOK_PATHS.test(path)) return { tier: 'webhook', key: path };
  if (!principal) return { tier: 'unauthenticated', key: `ip:${address}` };
  return { tier: await planOf(principal), key: principal.rateLimitKey };
}
