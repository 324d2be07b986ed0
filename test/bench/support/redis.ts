import { Redis } from 'ioredis';

/**
 * The URL of database `index` of the Redis the suite uses, emptied: each benchmark's rate limiter
 * counts in a database of its own, from zero.
 */
export async function emptyRedisDatabase(index: number): Promise<string> {
  const url = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  url.pathname = `/${index}`;
  const redis = new Redis(url.toString());
  await redis.flushdb();
  await redis.quit();
  return url.toString();
}
