import assert from 'node:assert/strict';
import { communityStatsCache, COMMUNITY_STATS_RELOAD_MS } from '../../api/community/community-stats-cache.ts';
import type { CommunityStats } from '../../api/community/community-stats.schema.ts';
import { TestClock } from '../auth/helpers.ts';

const statsAt = (cachedAt: string): CommunityStats => ({
  totalTesters: 0,
  activeTesters: 0,
  totalStudiesCompleted: 0,
  totalSessionsCompleted: 0,
  avgSessionRating: null,
  topCountries: [],
  deviceBreakdown: { desktop: 0, mobile: 0, tablet: 0 },
  avgCompensationPerSession: null,
  cachedAt,
  nextRefreshAt: '2030-01-07T03:00:00.000Z',
});

/** A database stand-in whose reads the test answers one by one. */
function scriptedLoads() {
  const pending: Array<{
    resolve: (stats: CommunityStats | undefined) => void;
    reject: (error: Error) => void;
  }> = [];
  return {
    pending,
    load: () =>
      new Promise<CommunityStats | undefined>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the community statistics held by an API process (api/community/community-stats-cache)', () => {
  it('reads once for requests that arrive together, then answers from memory', async () => {
    const loads = scriptedLoads();
    const clock = new TestClock();
    const cache = communityStatsCache({ load: loads.load, now: clock.now, onReloadError: () => {} });
    const together = [cache.current(), cache.current(), cache.current()];
    await settle();
    assert.equal(loads.pending.length, 1);
    loads.pending[0]!.resolve(statsAt('first'));
    assert.deepEqual(
      (await Promise.all(together)).map((stats) => stats?.cachedAt),
      ['first', 'first', 'first'],
    );
    assert.equal((await cache.current())?.cachedAt, 'first');
    assert.equal(loads.pending.length, 1);
  });

  it('a minute after the last read, answers what it holds at once and reads again in the background', async () => {
    const loads = scriptedLoads();
    const clock = new TestClock();
    const cache = communityStatsCache({ load: loads.load, now: clock.now, onReloadError: () => {} });
    const first = cache.current();
    await settle();
    loads.pending[0]!.resolve(statsAt('first'));
    await first;
    clock.advance(COMMUNITY_STATS_RELOAD_MS - 1);
    assert.equal((await cache.current())?.cachedAt, 'first');
    assert.equal(loads.pending.length, 1);
    clock.advance(1);
    // The read has begun but not answered: the request does not wait for it.
    assert.equal((await cache.current())?.cachedAt, 'first');
    assert.equal(loads.pending.length, 2);
    loads.pending[1]!.resolve(statsAt('second'));
    await settle();
    assert.equal((await cache.current())?.cachedAt, 'second');
  });

  it('a failed read keeps the held snapshot and is not retried for another minute', async () => {
    const loads = scriptedLoads();
    const clock = new TestClock();
    const errors: unknown[] = [];
    const cache = communityStatsCache({
      load: loads.load,
      now: clock.now,
      onReloadError: (error) => errors.push(error),
    });
    const first = cache.current();
    await settle();
    loads.pending[0]!.resolve(statsAt('first'));
    await first;
    clock.advance(COMMUNITY_STATS_RELOAD_MS);
    assert.equal((await cache.current())?.cachedAt, 'first');
    loads.pending[1]!.reject(new Error('database down'));
    await settle();
    assert.equal(errors.length, 1);
    clock.advance(COMMUNITY_STATS_RELOAD_MS - 1);
    assert.equal((await cache.current())?.cachedAt, 'first');
    assert.equal(loads.pending.length, 2);
    clock.advance(1);
    assert.equal((await cache.current())?.cachedAt, 'first');
    assert.equal(loads.pending.length, 3);
  });

  it('with nothing held, a failed read fails the request and the next one reads again', async () => {
    const loads = scriptedLoads();
    const cache = communityStatsCache({
      load: loads.load,
      now: new TestClock().now,
      onReloadError: () => {},
    });
    const failing = cache.current();
    await settle();
    loads.pending[0]!.reject(new Error('database down'));
    await assert.rejects(failing, /database down/);
    const next = cache.current();
    await settle();
    assert.equal(loads.pending.length, 2);
    loads.pending[1]!.resolve(undefined);
    assert.equal(await next, undefined);
  });

  it('refresh reads again after a read under way, which may have begun before the newest snapshot', async () => {
    const loads = scriptedLoads();
    const cache = communityStatsCache({
      load: loads.load,
      now: new TestClock().now,
      onReloadError: () => {},
    });
    const early = cache.current();
    await settle();
    const refreshed = cache.refresh();
    loads.pending[0]!.resolve(undefined);
    assert.equal(await early, undefined);
    await settle();
    assert.equal(loads.pending.length, 2);
    loads.pending[1]!.resolve(statsAt('first'));
    assert.equal((await refreshed)?.cachedAt, 'first');
  });
});
