import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { connectDatabase, type DatabaseHandle } from '../../db/connection.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { serviceDatabaseUrl, testDatabase } from '../support/database.ts';
import { createBusiness, studiesOf } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { sessionToken } from '../support/tokens.ts';

/** The service's pool in these tests: small, so that terminated connections are soon met. */
const POOL_SIZE = 4;

/** The service login's URL, through `port` and tagged with `applicationName` so a test can find its backends. */
function serviceUrlVia(port: number, applicationName: string): string {
  const url = new URL(serviceDatabaseUrl());
  url.hostname = '127.0.0.1';
  url.port = String(port);
  url.searchParams.set('application_name', applicationName);
  return url.toString();
}

function assertUnavailable(response: Awaited<ReturnType<TestApi['request']>>, dependency: string) {
  assert.equal(response.status, 503, response.text);
  assert.deepEqual(response.body, {
    success: false,
    data: null,
    error: `Unavailable: ${dependency} unreachable, try again later`,
    metadata: null,
  });
  assert.equal(response.headers.get('retry-after'), '5');
}

describe('the database going away', function () {
  this.timeout(60_000);
  const applicationName = `outage-${process.pid}`;
  let proxy: TcpProxy;
  let database: DatabaseHandle;
  let api: TestApi;

  before(async () => {
    const direct = new URL(serviceDatabaseUrl());
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    database = connectDatabase(serviceUrlVia(proxy.port, applicationName), { poolSize: POOL_SIZE });
    api = await startTestApi({ db: database.db });
  });
  after(async () => {
    await api.stop();
    await database.close();
    await proxy.close();
  });

  it('answers 503 naming the database while it is unreachable, stores nothing, and serves again once it is back', async () => {
    const owner = await createBusiness('pro');
    const business = await sessionToken(owner.claims);
    assert.equal((await api.request('GET', '/api/jobs', { token: business })).status, 200);

    await proxy.cut();
    const health = await api.request('GET', '/api/health');
    assert.equal(health.status, 503, health.text);
    assert.equal(health.body.error, 'Unavailable: database unreachable');
    assertUnavailable(await api.request('GET', '/api/jobs', { token: business }), 'database');
    assertUnavailable(
      await api.request('POST', '/api/jobs', { body: validStudyBody(), token: business }),
      'database',
    );
    assert.equal(await studiesOf([owner.organizationId]), 0, 'a refused create leaves no study behind');

    await proxy.restore();
    assert.equal((await api.request('GET', '/api/health')).status, 200);
    const created = await api.request('POST', '/api/jobs', { body: validStudyBody(), token: business });
    assert.equal(created.status, 201, created.text);
    assert.equal(await studiesOf([owner.organizationId]), 1);
  });

  it('survives its connections being terminated under load: every answer is 200 or 503, never 500, and the next ones are 200', async () => {
    const business = await sessionToken((await createBusiness('pro')).claims);
    const terminate = () =>
      sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${applicationName}`.execute(
        testDatabase(),
      );
    const statuses: number[] = [];
    const read = async () => {
      const response = await api.request('GET', '/api/jobs', { token: business });
      statuses.push(response.status);
      if (response.status !== 200) assertUnavailable(response, 'database');
    };

    // At least 5 rounds, and more (up to 30) until a termination has caught a read in flight:
    // on a busy machine every read of a round may finish before its termination runs.
    for (let round = 0; round < 30 && (round < 5 || !statuses.includes(503)); round += 1) {
      const reads = Array.from({ length: 20 }, read);
      await terminate();
      await Promise.all(reads);
      // Idle connections broken between requests: the pool drops them and the API lives on.
      await terminate();
    }
    assert.deepEqual(
      statuses.filter((status) => status !== 200 && status !== 503),
      [],
    );
    assert.ok(statuses.includes(503), 'some reads were on a connection when it ended');
    // Each dead connection still in the pool fails one read (503) as it is found and dropped; under
    // load the pool may not have heard of them all yet, so the API is back within a pool's worth.
    const before = statuses.length;
    do await read();
    while (statuses.at(-1) !== 200 && statuses.length - before <= POOL_SIZE);
    assert.deepEqual(statuses.slice(-1), [200]);
  });
});

describe("the rate limiter's store going away", function () {
  this.timeout(60_000);
  let proxy: TcpProxy;
  let api: TestApi;

  before(async () => {
    const redis = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
    proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    api = await startTestApi({ env: { REDIS_URL: `redis://127.0.0.1:${proxy.port}/15` } });
  });
  after(async () => {
    await api.stop();
    await proxy.close();
  });

  it('answers 503 naming it while Redis is unreachable (the limits are never skipped), and counts again once it is back', async () => {
    const business = await sessionToken((await createBusiness('pro')).claims);
    const counted = await api.request('GET', '/api/jobs', { token: business });
    assert.equal(counted.status, 200, counted.text);
    assert.ok(counted.headers.get('ratelimit-remaining'));

    await proxy.cut();
    assertUnavailable(await api.request('GET', '/api/jobs', { token: business }), 'rate limit store');
    assertUnavailable(await api.request('GET', '/api/community/stats'), 'rate limit store');

    await proxy.restore();
    let back: Awaited<ReturnType<TestApi['request']>> | undefined;
    for (let attempt = 0; attempt < 100 && back?.status !== 200; attempt += 1) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 100));
      back = await api.request('GET', '/api/jobs', { token: business });
    }
    assert.equal(back?.status, 200, back?.text);
  });
});
