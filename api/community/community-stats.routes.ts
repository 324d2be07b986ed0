import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { makeFirstCommunityStats } from '../../clients/temporal.ts';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { latestCommunityStatsSnapshot } from '../../db/repositories/community-stats.ts';
import { RETRY_AFTER_SECONDS } from '../../clients/unavailable.ts';
import { ApiError } from '../../lib/errors.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { communityStatsCache } from './community-stats-cache.ts';
import { communityStats, communityStatsOf, type CommunityStats } from './community-stats.schema.ts';

export interface CommunityDependencies {
  readonly db: Db;
  readonly temporal: Client;
  readonly taskQueue: string;
  readonly logger: Logger;
  readonly now: () => Date;
}

/** How long requests wait for the very first snapshot (a young database takes well under a second). */
const FIRST_SNAPSHOT_WAIT_MS = 5_000;

const statsNotReady = () =>
  new ApiError('unavailable', 'The community statistics are not available yet; try again shortly', {
    'Retry-After': String(RETRY_AFTER_SECONDS),
  });

export function communityRoutes(deps: CommunityDependencies): RouteDefinition[] {
  const cache = communityStatsCache({
    load: async () => {
      const snapshot = await asSystem(deps.db, latestCommunityStatsSnapshot);
      return snapshot && communityStatsOf(snapshot);
    },
    now: deps.now,
    onReloadError: (error) => deps.logger.warn({ err: error }, 'community statistics: reload failed'),
  });
  /** The run making the first snapshot, shared by the requests that wait for it. */
  let firstRun: Promise<void> | undefined;
  const makeFirst = () =>
    (firstRun ??= deps.temporal
      // The deadline ends the start and the wait for the result (a long poll) together.
      .withDeadline(Date.now() + FIRST_SNAPSHOT_WAIT_MS, () =>
        makeFirstCommunityStats(deps.temporal, deps.taskQueue),
      )
      .finally(() => {
        firstRun = undefined;
      }));

  /** None has ever been made (the worker's start makes one; this covers an API that asks first). */
  const first = async (): Promise<CommunityStats> => {
    try {
      await makeFirst();
    } catch (error) {
      deps.logger.warn({ err: error }, 'community statistics: no first snapshot yet');
      throw statsNotReady();
    }
    const stats = await cache.refresh().catch(() => undefined);
    if (!stats) throw statsNotReady();
    return stats;
  };
  const current = () =>
    cache.current().catch((error: unknown) => {
      deps.logger.warn({ err: error }, 'community statistics: the snapshot could not be read');
      throw statsNotReady();
    });

  return [
    defineRoute({
      method: 'GET',
      path: '/api/community/stats',
      tag: 'Community',
      summary:
        'Community statistics, public: a snapshot refreshed every 7 days (Cache-Control until nextRefreshAt); there is no invalidation endpoint',
      auth: 'public',
      response: communityStats,
      errors: [503],
      handler: async ({ ctx }) => {
        const stats = (await current()) ?? (await first());
        const secondsLeft = Math.ceil((Date.parse(stats.nextRefreshAt) - deps.now().getTime()) / 1000);
        ctx.set('Cache-Control', `public, max-age=${Math.max(0, secondsLeft)}`);
        return { data: stats };
      },
    }),
  ];
}
