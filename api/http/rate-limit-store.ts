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

/** Keys counted in one command at most (Lua's stack and one reply stay small). */
const MAX_BATCH = 1_000;

/**
 * Counts each key of the batch in order (a key twice counts twice) and gives a new window's key its
 * end; answers the counts in the keys' order.
 */
const HIT_WINDOWS = `local counts = {}
for index, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('PEXPIRE', key, ARGV[index]) end
  counts[index] = count
end
return counts`;

type CountingRedis = Redis & { hitWindows(...keysAndWindows: (string | number)[]): Promise<number[]> };

interface PendingHit {
  readonly bucket: string;
  readonly windowMs: number;
  resolve(count: number): void;
  reject(error: unknown): void;
}

/**
 * Counters shared by every instance through one Redis server (INCR on a key that expires after its
 * window). The hits of one turn of the event loop are counted by one command together (about 22 a
 * command under 200 concurrent clients), where a command each cost the API a command object, its
 * script's lookup and a reply to parse per request (docs/decisions/api-conventions.md,
 * "Rate-limit windows").
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: CountingRedis;
  private pending: PendingHit[] = [];

  constructor(
    url: string,
    private readonly prefix = 'ratelimit',
  ) {
    // Not auto-pipelined: the store batches a turn's hits itself, and ioredis' own batching would
    // hold each batch back for one more turn of the event loop (its setImmediate, queued from ours).
    this.redis = new Redis(url, { maxRetriesPerRequest: 2 }) as CountingRedis;
    this.redis.defineCommand('hitWindows', { lua: HIT_WINDOWS });
    // While Redis is away each command fails on its own (the request answers 503 and is logged);
    // the client's connection errors would otherwise print to stderr on every reconnect.
    this.redis.on('error', () => {});
  }

  hit(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const windowStart = now - (now % windowMs);
    const bucket = `${this.prefix}:${key}:${windowStart}`;
    return new Promise<number>((resolve, reject) => {
      if (this.pending.push({ bucket, windowMs, resolve, reject }) === 1)
        setImmediate(() => this.countPending());
    }).then((count) => ({ count, resetMs: windowStart + windowMs - now }));
  }

  private countPending(): void {
    const pending = this.pending;
    this.pending = [];
    for (let start = 0; start < pending.length; start += MAX_BATCH) {
      const batch = pending.slice(start, start + MAX_BATCH);
      this.redis
        .hitWindows(batch.length, ...batch.map((hit) => hit.bucket), ...batch.map((hit) => hit.windowMs))
        .then(
          (counts) => batch.forEach((hit, index) => hit.resolve(Number(counts[index]))),
          (error: unknown) => batch.forEach((hit) => hit.reject(error)),
        );
    }
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
