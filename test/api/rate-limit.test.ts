import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { Redis } from 'ioredis';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import Stripe from 'stripe';
import { RedisRateLimitStore } from '../../api/http/rate-limit-store.ts';
import { LOCAL_PAYMENTS_WEBHOOK_SECRET } from '../../config/payments.ts';
import type { Database } from '../../db/schema.ts';
import { eventually } from '../audits/polling.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { serviceDatabaseUrl } from '../support/database.ts';
import { createBusiness, createTester } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';

const MINUTE_MS = 60_000;
// The Redis server the shared-counter test uses; Redis runs beside PostgreSQL (see the README).
const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The API's clock, moved by the tests; windows are aligned to whole minutes of it. */
class Clock {
  constructor(private current = Date.parse('2030-01-01T00:00:00.000Z')) {}
  readonly now = () => new Date(this.current);
  advance(ms: number) {
    this.current += ms;
  }
}

/** A key's value as a Redis client in another process reads it (synchronously). */
function counterReadElsewhere(key: string): string {
  const script = `import { Redis } from 'ioredis';
const redis = new Redis(process.argv[1]);
process.stdout.write(String(await redis.get(process.argv[2])));
redis.disconnect();`;
  const read = spawnSync(process.execPath, ['--input-type=module', '-e', script, TEST_REDIS_URL, key], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (read.status !== 0) throw new Error(`reading ${key}: ${read.stderr}`);
  return read.stdout;
}

/** Sends `count` requests, a batch at a time, and returns their statuses in order. */
async function statuses(count: number, send: () => Promise<{ status: number }>): Promise<number[]> {
  const out: number[] = [];
  while (out.length < count) {
    const batch = Math.min(25, count - out.length);
    const responses = await Promise.all(Array.from({ length: batch }, send));
    out.push(...responses.map((response) => response.status));
  }
  return out;
}

/** A request from a chosen loopback address, so the API sees another client; answers the status. */
function sendFrom(
  url: string,
  localAddress: string,
  path: string,
  {
    method = 'GET',
    body,
    headers = {},
  }: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<number> {
  const { hostname, port } = new URL(url);
  const sent = body === undefined ? headers : { 'Content-Type': 'application/json', ...headers };
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { hostname, port, path, method, localAddress, agent: false, headers: sent },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const signer = new Stripe('sk_test_signer');
/** A provider event of a type nobody acts on, signed with the local provider's secret (NODE_ENV test). */
function signedEvent(): { rawBody: string; headers: Record<string, string> } {
  const payload = JSON.stringify({
    id: `evt_rate_${randomUUID()}`,
    object: 'event',
    type: 'customer.created',
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: 'cus_rate', object: 'customer' } },
  });
  const signature = signer.webhooks.generateTestHeaderString({
    payload,
    secret: LOCAL_PAYMENTS_WEBHOOK_SECRET,
  });
  return { rawBody: payload, headers: { 'Payment-Signature': signature } };
}

const tokenAt = async (clock: Clock, claims: Parameters<typeof sessionToken>[0]) =>
  sessionToken(claims, clock.now());

describe('rate limiting', () => {
  describe('one instance, in-memory counters', () => {
    let api: TestApi;
    let clock: Clock;
    beforeEach(async () => {
      clock = new Clock();
      api = await startTestApi({ now: clock.now });
    });
    afterEach(() => api.stop());

    it('unauthenticated callers get 30 requests per minute, then 429 with Retry-After', async () => {
      const seen = await statuses(30, () => api.request('GET', '/api/health'));
      assert.ok(
        seen.every((status) => status === 200),
        seen.join(','),
      );
      const refused = await api.request('GET', '/api/health');
      assert.equal(refused.status, 429);
      assert.equal(refused.body.success, false);
      assert.equal(refused.body.error, 'Rate limit of 30 requests per minute exceeded');
      const retryAfter = refused.headers.get('Retry-After') ?? '';
      assert.match(retryAfter, /^[1-9]\d*$/, 'whole seconds, above 0');
      assert.equal(refused.headers.get('RateLimit-Limit'), '30');
      assert.equal(refused.headers.get('RateLimit-Remaining'), '0');
    });

    it('Retry-After is the seconds left in the window', async () => {
      clock.advance(45_000);
      await statuses(30, () => api.request('GET', '/api/nowhere'));
      const refused = await api.request('GET', '/api/nowhere');
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('Retry-After'), '15');
    });

    it('the window resets after a minute', async () => {
      await statuses(31, () => api.request('GET', '/api/nowhere'));
      assert.equal((await api.request('GET', '/api/nowhere')).status, 429);
      clock.advance(MINUTE_MS);
      assert.equal((await api.request('GET', '/api/nowhere')).status, 404);
    });

    it('unauthenticated callers are counted by client address, not by a forwarded header', async () => {
      await statuses(30, () => api.request('GET', '/api/nowhere'));
      assert.equal(await sendFrom(api.url, '127.0.0.1', '/api/nowhere'), 429);
      const spoofed = await api.request('GET', '/api/nowhere', {
        headers: { 'X-Forwarded-For': '203.0.113.9' },
      });
      assert.equal(spoofed.status, 429);
      assert.equal(await sendFrom(api.url, '127.0.0.2', '/api/nowhere'), 404);
    });

    it('an authenticated free-tier caller gets 120 requests per minute', async () => {
      const token = await tokenAt(clock, (await createBusiness('free')).claims);
      const seen = await statuses(120, () => api.request('GET', '/api/jobs?limit=1', { token }));
      assert.ok(
        seen.every((status) => status === 200),
        seen.join(','),
      );
      const refused = await api.request('GET', '/api/jobs?limit=1', { token });
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('RateLimit-Limit'), '120');
      assert.match(refused.headers.get('Retry-After') ?? '', /^[1-9]\d*$/);
    });

    it('an authenticated pro-tier caller gets 600 requests per minute', async () => {
      const token = await tokenAt(clock, (await createBusiness('pro')).claims);
      const seen = await statuses(600, () => api.request('GET', '/api/jobs?limit=1', { token }));
      assert.ok(
        seen.every((status) => status === 200),
        `first refusal at ${seen.findIndex((status) => status !== 200) + 1}`,
      );
      const refused = await api.request('GET', '/api/jobs?limit=1', { token });
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('RateLimit-Limit'), '600');
    });

    it('counters are per credential: another user, and anonymous callers, are not throttled', async () => {
      const throttled = await tokenAt(clock, (await createBusiness('free')).claims);
      await statuses(121, () => api.request('GET', '/api/jobs?limit=1', { token: throttled }));
      assert.equal((await api.request('GET', '/api/jobs?limit=1', { token: throttled })).status, 429);

      const other = await tokenAt(clock, (await createBusiness('free')).claims);
      assert.equal((await api.request('GET', '/api/jobs?limit=1', { token: other })).status, 200);
      const tester = await tokenAt(clock, await createTester());
      assert.equal((await api.request('GET', '/api/jobs?limit=1', { token: tester })).status, 200);
      assert.equal((await api.request('GET', '/api/health')).status, 200);
    });

    it('a caller without an organization (a tester) is on the free tier', async () => {
      const token = await tokenAt(clock, await createTester());
      await statuses(120, () => api.request('GET', '/api/nowhere', { token }));
      const refused = await api.request('GET', '/api/nowhere', { token });
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('RateLimit-Limit'), '120');
    });

    it('webhooks: verified deliveries share 1,000 a minute per route; unverified ones count per address and cannot spend it', async () => {
      const path = '/api/webhooks/payments';
      // Unsigned junk from one address: 30 refusals (the unauthenticated rate), then 429.
      const junk = await statuses(30, () => api.request('POST', path, { body: {} }));
      assert.ok(
        junk.every((status) => status === 401),
        junk.join(','),
      );
      const throttled = await api.request('POST', path, { body: {} });
      assert.equal(throttled.status, 429);
      assert.equal(throttled.headers.get('RateLimit-Limit'), '30');
      // Another address has a budget of its own.
      assert.equal(await sendFrom(api.url, '127.0.0.2', path, { method: 'POST', body: '{}' }), 401);

      // The provider's signed deliveries are untouched by the junk, even from the same address.
      const first = await api.request('POST', path, signedEvent());
      assert.equal(first.status, 200, first.text);
      assert.equal(first.headers.get('RateLimit-Limit'), '1000');
      assert.equal(first.headers.get('RateLimit-Remaining'), '999');
      const verified = await statuses(999, () => api.request('POST', path, signedEvent()));
      assert.ok(
        verified.every((status) => status === 200),
        `first other status at ${verified.findIndex((status) => status !== 200) + 1}`,
      );
      // The route's budget is shared by every sender, and spent only by verified deliveries.
      const over = await api.request('POST', path, signedEvent());
      assert.equal(over.status, 429);
      assert.equal(over.headers.get('RateLimit-Limit'), '1000');
      const { rawBody, headers } = signedEvent();
      assert.equal(
        await sendFrom(api.url, '127.0.0.3', path, { method: 'POST', body: rawBody, headers }),
        429,
      );
      assert.notEqual(await sendFrom(api.url, '127.0.0.3', '/api/webhooks/scheduling'), 429);
    });
  });

  describe('behind a proxy (TRUST_PROXY)', () => {
    const fromClient = (api: TestApi, forwardedFor: string) =>
      api.request('GET', '/api/nowhere', { headers: { 'X-Forwarded-For': forwardedFor } });

    it('TRUST_PROXY=1: the address the proxy appended to X-Forwarded-For decides the anonymous key', async () => {
      const clock = new Clock();
      const api = await startTestApi({ env: { TRUST_PROXY: '1' }, now: clock.now });
      try {
        const spent = await statuses(30, () => fromClient(api, '203.0.113.1'));
        assert.ok(
          spent.every((status) => status === 404),
          spent.join(','),
        );
        assert.equal((await fromClient(api, '203.0.113.1')).status, 429);
        // Another client behind the same proxy (same socket address) has a budget of its own...
        assert.equal((await fromClient(api, '203.0.113.2')).status, 404);
        // ...and a client cannot escape its bucket by prepending addresses: only the proxy's entry counts.
        assert.equal((await fromClient(api, '198.51.100.7, 203.0.113.1')).status, 429);
      } finally {
        await api.stop();
      }
    });

    it('TRUST_PROXY=0: X-Forwarded-For is ignored and the socket address decides', async () => {
      const clock = new Clock();
      const api = await startTestApi({ env: { TRUST_PROXY: '0' }, now: clock.now });
      try {
        await statuses(30, () => fromClient(api, '203.0.113.1'));
        assert.equal((await fromClient(api, '203.0.113.2')).status, 429);
      } finally {
        await api.stop();
      }
    });
  });

  describe('credential lookups come after the address budget (a flood of made-up tokens)', () => {
    let api: TestApi;
    let clock: Clock;
    let queries = 0;
    // The service login, counting every statement the API sends.
    let counted: Kysely<Database>;
    beforeEach(async () => {
      clock = new Clock();
      queries = 0;
      counted = new Kysely<Database>({
        dialect: new PostgresDialect({
          pool: new pg.Pool({ connectionString: serviceDatabaseUrl(), max: 2 }),
        }),
        log: (event) => {
          if (event.level === 'query') queries += 1;
        },
      });
      api = await startTestApi({ now: clock.now, db: counted, worker: false });
    });
    afterEach(async () => {
      await api.stop();
      await counted.destroy();
    });

    const madeUpTestToken = () => randomBytes(24).toString('hex');
    const madeUpApiToken = () => `uat_${randomBytes(32).toString('base64url')}`;

    it('after 30 unknown tokens from one address, the 31st is 429 without a database query', async () => {
      const seen = await statuses(30, () =>
        api.request('GET', '/api/jobs', { headers: { 'X-Test-Token': madeUpTestToken() } }),
      );
      assert.ok(
        seen.every((status) => status === 401),
        seen.join(','),
      );
      assert.ok(queries >= 30, 'each unknown token was looked up once');
      const spent = queries;
      const testToken = await api.request('GET', '/api/jobs', {
        headers: { 'X-Test-Token': madeUpTestToken() },
      });
      assert.equal(testToken.status, 429);
      assert.match(testToken.headers.get('Retry-After') ?? '', /^[1-9]\d*$/);
      const apiToken = await api.request('GET', '/api/jobs', { token: madeUpApiToken() });
      assert.equal(apiToken.status, 429);
      assert.equal(queries, spent, 'neither lookup reached the database');

      clock.advance(MINUTE_MS);
      assert.equal((await api.request('GET', '/api/jobs', { token: madeUpApiToken() })).status, 401);
    });

    it('an API token verified within the last minute is not looked up again, so a spent address budget does not stop it', async () => {
      const owner = await tokenAt(clock, (await createBusiness('free')).claims);
      const issued = await api.request('POST', '/api/auth/tokens', {
        token: owner,
        body: { name: 'integration', scope: 'read' },
      });
      const { token } = issued.body.data as { token: string };
      assert.equal((await api.request('GET', '/api/jobs', { token })).status, 200); // now cached
      await statuses(31, () => api.request('GET', '/api/jobs', { token: madeUpApiToken() }));
      assert.equal((await api.request('GET', '/api/jobs', { token: madeUpApiToken() })).status, 429);
      assert.equal((await api.request('GET', '/api/jobs', { token })).status, 200);
    });
  });

  describe('two instances with REDIS_URL', () => {
    it('the lookup gate reads the shared count without adding to it (peek)', async () => {
      const store = new RedisRateLimitStore(TEST_REDIS_URL, `ratelimit-test-${randomUUID()}`);
      try {
        const now = Date.parse('2030-01-01T00:00:10.000Z');
        assert.equal((await store.peek('key', MINUTE_MS, now)).count, 0);
        await store.hit('key', MINUTE_MS, now);
        await store.hit('key', MINUTE_MS, now);
        const seen = await store.peek('key', MINUTE_MS, now);
        assert.deepEqual(seen, { count: 2, resetMs: 50_000 });
        assert.equal((await store.peek('key', MINUTE_MS, now)).count, 2);
        assert.equal((await store.peek('key', MINUTE_MS, now + MINUTE_MS)).count, 0, 'a new window');
      } finally {
        await store.close();
      }
    });

    it('counts the hits of one turn in one command, each in order (a key twice counts twice), 1,000 keys a command', async () => {
      const prefix = `ratelimit-test-${randomUUID()}`;
      const store = new RedisRateLimitStore(TEST_REDIS_URL, prefix);
      const client = new Redis(TEST_REDIS_URL);
      const monitor = await client.monitor();
      try {
        const now = Date.parse('2030-01-01T00:00:10.000Z');
        await store.hit('warm-up', MINUTE_MS, now); // the script is in Redis from here on
        // Redis' own log of what it runs (every connection's): this store's counting commands.
        const commands: string[][] = [];
        monitor.on('monitor', (_time: string, args: string[]) => {
          const ours = args.some((arg) => arg.startsWith(`${prefix}:a:`) || arg.startsWith(`${prefix}:c:`));
          if (ours && /^eval/i.test(args[0] ?? '')) commands.push(args);
        });
        const hits = await Promise.all(['a', 'b', 'a', 'a'].map((key) => store.hit(key, MINUTE_MS, now)));
        assert.deepEqual(
          hits.map((hit) => hit.count),
          [1, 1, 2, 3],
        );
        // More than one command's worth (1,000 keys) in one turn.
        const many = await Promise.all(Array.from({ length: 2500 }, () => store.hit('c', MINUTE_MS, now)));
        assert.deepEqual(
          many.map((hit) => hit.count),
          Array.from({ length: 2500 }, (_, index) => index + 1),
        );
        assert.ok(many.every((hit) => hit.resetMs === 50_000));
        await eventually(() => commands.length >= 4, 3000);
        await new Promise((resolve) => setTimeout(resolve, 200)); // time for any surplus to show
        // One for the first turn's four hits, three for the 2,500 of the second.
        assert.equal(commands.length, 4);
      } finally {
        monitor.disconnect();
        client.disconnect();
        await store.close();
      }
    });

    it("sends a turn's hits to Redis in that turn, not one turn later", async () => {
      const prefix = `ratelimit-test-${randomUUID()}`;
      const store = new RedisRateLimitStore(TEST_REDIS_URL, prefix);
      try {
        const now = Date.parse('2030-01-01T00:00:10.000Z');
        await store.hit('warm-up', MINUTE_MS, now); // connected, the script in Redis
        const bucket = `${prefix}:key:${now - (now % MINUTE_MS)}`;
        const seenByAnotherClient = await new Promise<string>((resolve) => {
          void store.hit('key', MINUTE_MS, now);
          // Runs just after the store's own setImmediate, in the same turn, and holds the event
          // loop while another process reads the counter: only a command already written counts.
          setImmediate(() => resolve(counterReadElsewhere(bucket)));
        });
        assert.equal(seenByAnotherClient, '1');
      } finally {
        await store.close();
      }
    });

    it("a window's counter expires with its window, and later hits in it do not push that back", async () => {
      const prefix = `ratelimit-test-${randomUUID()}`;
      const store = new RedisRateLimitStore(TEST_REDIS_URL, prefix);
      const redis = new Redis(TEST_REDIS_URL);
      try {
        const now = Date.parse('2030-01-01T00:00:10.000Z');
        const bucket = `${prefix}:key:${now - (now % MINUTE_MS)}`;
        await store.hit('key', MINUTE_MS, now);
        const first = await redis.pttl(bucket);
        assert.ok(first > 0 && first <= MINUTE_MS, `expires in ${first} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        await store.hit('key', MINUTE_MS, now);
        assert.ok((await redis.pttl(bucket)) < first, 'the second hit left the expiry where it was');
      } finally {
        redis.disconnect();
        await store.close();
      }
    });

    it('share one counter per credential', async () => {
      const clock = new Clock();
      const env = { REDIS_URL: TEST_REDIS_URL };
      const first = await startTestApi({ env, now: clock.now });
      const second = await startTestApi({ env, now: clock.now });
      try {
        // A fresh user: its counter key is unique to this run, whatever else uses the Redis server.
        const token = await tokenAt(clock, (await createBusiness('free')).claims);
        const send = (api: TestApi) => () => api.request('GET', '/api/nowhere', { token });
        assert.ok((await statuses(60, send(first))).every((status) => status === 404));
        assert.ok((await statuses(60, send(second))).every((status) => status === 404));
        const refusedByFirst = await first.request('GET', '/api/nowhere', { token });
        const refusedBySecond = await second.request('GET', '/api/nowhere', { token });
        assert.equal(refusedByFirst.status, 429);
        assert.equal(refusedBySecond.status, 429);
        assert.match(refusedBySecond.headers.get('Retry-After') ?? '', /^[1-9]\d*$/);
      } finally {
        await first.stop();
        await second.stop();
      }
    });
  });
});
