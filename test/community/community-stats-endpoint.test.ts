import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { ScheduleDescription } from '@temporalio/client';
import { sql } from 'kysely';
import { asSystem } from '../../db/doors.ts';
import { recordCommunityStatsSnapshot } from '../../db/repositories/community-stats.ts';
import {
  COMMUNITY_STATS_REFRESH_MS,
  COMMUNITY_STATS_REFRESH_OFFSET_MS,
  nextCommunityStatsRefresh,
} from '../../lib/community-stats.ts';
import { ensureCommunityStatsSchedule } from '../../workers/community-stats-schedule.ts';
import { FIRST_COMMUNITY_STATS_WORKFLOW_ID } from '../../workflows/messages/community-stats.ts';
import { TestClock } from '../auth/helpers.ts';
import { waitFor } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { ensureServiceWorker, temporalEnvironment, TEST_TASK_QUEUE } from '../support/temporal.ts';

const FIELDS = [
  'activeTesters',
  'avgCompensationPerSession',
  'avgSessionRating',
  'cachedAt',
  'deviceBreakdown',
  'nextRefreshAt',
  'topCountries',
  'totalSessionsCompleted',
  'totalStudiesCompleted',
  'totalTesters',
].sort();

const snapshotCount = async () =>
  Number(
    (await sql<{ n: string }>`select count(*) as n from community_stats_snapshots`.execute(testDatabase()))
      .rows[0]!.n,
  );
const clearSnapshots = () => sql`delete from community_stats_snapshots`.execute(testDatabase());
describe('GET /api/community/stats and its 7-day Schedule', () => {
  const scheduleIds: string[] = [];
  let api: TestApi | undefined;

  before(() => ensureServiceWorker());
  afterEach(async () => {
    await api?.stop();
    api = undefined;
  });
  after(async () => {
    const env = await temporalEnvironment();
    for (const id of scheduleIds) await env.client.schedule.getHandle(id).delete();
  });

  it('makes the first snapshot when the worker starts and none exists, and runs every 7 days from then on', async () => {
    const env = await temporalEnvironment();
    const scheduleId = `community-stats-test-${randomUUID()}`;
    scheduleIds.push(scheduleId);
    await clearSnapshots();
    const first = await ensureCommunityStatsSchedule(env.client, TEST_TASK_QUEUE, serviceDatabase(), {
      scheduleId,
    });
    assert.equal(first.triggered, true);
    await waitFor(async () => (await snapshotCount()) === 1);
    // Every later start finds the snapshot and leaves the Schedule as it is: one run so far.
    const again = await ensureCommunityStatsSchedule(env.client, TEST_TASK_QUEUE, serviceDatabase(), {
      scheduleId,
    });
    assert.equal(again.triggered, false);
    const description: ScheduleDescription = await env.client.schedule.getHandle(scheduleId).describe();
    assert.equal(description.info.recentActions.length, 1);
    assert.equal(description.policies.overlap, 'SKIP');
    const interval = description.spec.intervals?.[0];
    assert.equal(Number(interval?.every), COMMUNITY_STATS_REFRESH_MS);
    assert.equal(Number(interval?.offset), COMMUNITY_STATS_REFRESH_OFFSET_MS);
    // The Schedule's next run is the time each snapshot names as nextRefreshAt.
    assert.equal(
      description.info.nextActionTimes[0]?.toISOString(),
      nextCommunityStatsRefresh(new Date()).toISOString(),
    );
    const row = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('community_stats_snapshots').selectAll().executeTakeFirstOrThrow(),
    );
    assert.equal(row.next_refresh_at.toISOString(), description.info.nextActionTimes[0]?.toISOString());
  });

  it('runs at worker start when the newest snapshot is past its nextRefreshAt (a run was missed)', async () => {
    const env = await temporalEnvironment();
    const scheduleId = `community-stats-test-${randomUUID()}`;
    scheduleIds.push(scheduleId);
    await clearSnapshots();
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000);
    await asSystem(testDatabase(), (tx) =>
      recordCommunityStatsSnapshot(tx, tenDaysAgo, nextCommunityStatsRefresh(tenDaysAgo)),
    );
    const started = await ensureCommunityStatsSchedule(env.client, TEST_TASK_QUEUE, serviceDatabase(), {
      scheduleId,
    });
    assert.equal(started.triggered, true);
    await waitFor(async () => (await snapshotCount()) === 2);
    const newest = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('community_stats_snapshots')
        .selectAll()
        .orderBy('cached_at', 'desc')
        .executeTakeFirstOrThrow(),
    );
    assert.ok(newest.next_refresh_at.getTime() > Date.now());
  });

  it('serves the newest snapshot to anyone, exactly the ten fields, cacheable until nextRefreshAt', async () => {
    const clock = new TestClock(new Date());
    const made = await asSystem(testDatabase(), (tx) =>
      recordCommunityStatsSnapshot(tx, clock.now(), nextCommunityStatsRefresh(clock.now())),
    );
    api = await startTestApi({ now: clock.now });
    const response = await api.request('GET', '/api/community/stats');
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.success, true);
    assert.equal(response.body.error, null);
    const stats = response.body.data as Record<string, unknown>;
    assert.deepEqual(Object.keys(stats).sort(), FIELDS);
    assert.equal(stats.cachedAt, made.cached_at.toISOString());
    assert.equal(stats.nextRefreshAt, made.next_refresh_at.toISOString());
    assert.equal(stats.totalTesters, made.total_testers);
    assert.equal(stats.activeTesters, made.active_testers);
    assert.equal(stats.totalStudiesCompleted, made.total_studies_completed);
    assert.equal(stats.totalSessionsCompleted, made.total_sessions_completed);
    assert.deepEqual(stats.topCountries, made.top_countries);
    assert.equal(
      stats.avgSessionRating,
      made.avg_session_rating === null ? null : Number(made.avg_session_rating),
    );
    const devices = stats.deviceBreakdown as Record<string, number>;
    assert.deepEqual(Object.keys(devices).sort(), ['desktop', 'mobile', 'tablet']);
    const sum = devices.desktop! + devices.mobile! + devices.tablet!;
    assert.ok(sum === 0 || Math.abs(sum - 1) < 1e-9, `shares sum to ${sum}`);
    const compensation = stats.avgCompensationPerSession as { currency: string; amount: number } | null;
    if (made.avg_compensation_currency === null) assert.equal(compensation, null);
    else
      assert.deepEqual(compensation, {
        currency: made.avg_compensation_currency,
        amount: Number(made.avg_compensation_amount),
      });
    const maxAge = Math.ceil((made.next_refresh_at.getTime() - clock.now().getTime()) / 1000);
    assert.equal(response.headers.get('cache-control'), `public, max-age=${maxAge}`);
    assert.ok(maxAge > 0 && maxAge <= COMMUNITY_STATS_REFRESH_MS / 1000);

    // A day later the same snapshot is served, with a day less to cache it.
    clock.advance(86_400_000);
    const later = await api.request('GET', '/api/community/stats');
    assert.equal((later.body.data as { cachedAt: string }).cachedAt, made.cached_at.toISOString());
    assert.equal(later.headers.get('cache-control'), `public, max-age=${Math.max(0, maxAge - 86_400)}`);
  });

  it('picks up a newer snapshot within a minute, without a request waiting for it', async () => {
    const clock = new TestClock(new Date());
    api = await startTestApi({ now: clock.now });
    await asSystem(testDatabase(), (tx) =>
      recordCommunityStatsSnapshot(tx, clock.now(), nextCommunityStatsRefresh(clock.now())),
    );
    const cachedAt = async () =>
      ((await api!.request('GET', '/api/community/stats')).body.data as { cachedAt: string }).cachedAt;
    const held = await cachedAt();
    clock.advance(1000);
    const newer = await asSystem(testDatabase(), (tx) =>
      recordCommunityStatsSnapshot(tx, clock.now(), nextCommunityStatsRefresh(clock.now())),
    );
    assert.equal(await cachedAt(), held);
    clock.advance(60_000);
    // The first request after the minute still answers at once with the held snapshot.
    assert.equal(await cachedAt(), held);
    await waitFor(async () => (await cachedAt()) === newer.cached_at.toISOString());
  });

  it('makes the first snapshot itself when asked before any exists', async () => {
    await clearSnapshots();
    api = await startTestApi();
    const response = await api.request('GET', '/api/community/stats');
    assert.equal(response.status, 200, response.text);
    assert.equal(await snapshotCount(), 1);
    const env = await temporalEnvironment();
    const run = await env.client.workflow.getHandle(FIRST_COMMUNITY_STATS_WORKFLOW_ID).describe();
    assert.equal(run.status.name, 'COMPLETED');
    assert.equal((response.body.data as { cachedAt: string }).cachedAt, await firstCachedAt());
  });

  it('answers 503 with Retry-After when no snapshot exists and none can be made in time', async () => {
    await clearSnapshots();
    // No worker polls this task queue: the first snapshot's run cannot start.
    api = await startTestApi({ env: { TEMPORAL_TASK_QUEUE: `nobody-${randomUUID()}` } });
    const env = await temporalEnvironment();
    try {
      const response = await api.request('GET', '/api/community/stats');
      assert.equal(response.status, 503, response.text);
      assert.equal(response.headers.get('retry-after'), '5');
      assert.equal(response.body.success, false);
      assert.match(response.body.error ?? '', /not available yet/);
      assert.equal(await snapshotCount(), 0);
    } finally {
      await env.client.workflow.getHandle(FIRST_COMMUNITY_STATS_WORKFLOW_ID).terminate('test over');
    }
  });

  it('has no way to invalidate or change the statistics', async () => {
    api = await startTestApi();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await api.request(method, '/api/community/stats');
      assert.equal(response.status, 405, `${method}: ${response.text}`);
      assert.equal(response.body.success, false);
    }
    assert.equal((await api.request('POST', '/api/community/stats/refresh')).status, 404);
    assert.equal((await api.request('DELETE', '/api/community/stats/cache')).status, 404);
  });
});

async function firstCachedAt(): Promise<string> {
  const row = await asSystem(testDatabase(), (tx) =>
    tx.selectFrom('community_stats_snapshots').select('cached_at').executeTakeFirstOrThrow(),
  );
  return row.cached_at.toISOString();
}
