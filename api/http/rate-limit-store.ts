import { Redis } from 'ioredis';

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  readonly count: number;
  /** Milliseconds until the window closes. */
  readonly resetMs: number;
}

/** Counts requests per key in fixed one-window buckets. */
export interface RateLimitStore {
  hit(key: string, windowMs: number, now: number): Promise<WindowCount>;
  /** The current window's count without adding to it (0 for a window nobody has hit). */
  peek(key: string, windowMs: number, now: number): Promise<WindowCount>;
  close(): Promise<void>;
}

/** Counters for a single instance; expired windows are swept as new ones open. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = 0;

  hit(key: string, windowMs: number, now: number): Promise<WindowCount> {
    if (now - this.lastSweep > windowMs) this.sweep(now);
    const windowStart = now - (now % windowMs);
    const bucket = `${key}:${windowStart}`;
    const entry = this.windows.get(bucket) ?? { count: 0, resetAt: windowStart + windowMs };
    entry.count += 1;
    this.windows.set(bucket, entry);
    return Promise.resolve({ count: entry.count, resetMs: entry.resetAt - now });
  }

  peek(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const windowStart = now - (now % windowMs);
    const count = this.windows.get(`${key}:${windowStart}`)?.count ?? 0;
    return Promise.resolve({ count, resetMs: windowStart + windowMs - now });
  }

  close(): Promise<void> {
    this.windows.clear();
    return Promise.resolve();
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [bucket, entry] of this.windows) if (entry.resetAt <= now) this.windows.delete(bucket);
  }
}

type CountingRedis = Redis & { hitWindow(key: string, windowMs: number): Promise<number> };

/** Counters shared by every instance through Redis (INCR on a key that expires after its window). */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix = 'ratelimit',
  ) {
    // Commands of requests in the same tick go out in one write (the limiter's cost under load).
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
    // One command a request (a transaction is four, and is never pipelined with others'): count,
    // and give a new window's key its end.
    this.redis.defineCommand('hitWindow', {
      numberOfKeys: 1,
      lua: "local count = redis.call('INCR', KEYS[1]) if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return count",
    });
    // While Redis is away each command fails on its own (the request answers 503 and is logged);
    // the client's connection errors would otherwise print to stderr on every reconnect.
    this.redis.on('error', () => {});
  }

  async hit(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const windowStart = now - (now % windowMs);
    const bucket = `${this.prefix}:${key}:${windowStart}`;
    const count = Number(await (this.redis as CountingRedis).hitWindow(bucket, windowMs));
    return { count, resetMs: windowStart + windowMs - now };
  }

  async peek(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const windowStart = now - (now % windowMs);
    const count = Number((await this.redis.get(`${this.prefix}:${key}:${windowStart}`)) ?? 0);
    return { count, resetMs: windowStart + windowMs - now };
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
