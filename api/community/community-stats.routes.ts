import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { makeFirstCommunityStats } from '../../clients/temporal.ts';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { latestCommunityStatsSnapshot } from '../../db/repositories/community-stats.ts';
import { ApiError } from '../http/errors.ts';
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

/** How long a request waits for the very first snapshot (an empty-ish database takes well under a second). */
const FIRST_SNAPSHOT_WAIT_MS = 5_000;

const statsNotReady = () =>
  new ApiError('unavailable', 'The community statistics are being computed; try again shortly', {
    'Retry-After': '5',
  });

export function communityRoutes(deps: CommunityDependencies): RouteDefinition[] {
  const loadLatest = async (): Promise<CommunityStats | undefined> => {
    const snapshot = await asSystem(deps.db, latestCommunityStatsSnapshot);
    return snapshot && communityStatsOf(snapshot);
  };
  const current = communityStatsCache({
    load: loadLatest,
    now: deps.now,
    onReloadError: (error) => deps.logger.warn({ err: error }, 'community statistics: reload failed'),
  });
  /** None has ever been made (the worker's start makes one; this covers an API that asks first). */
  const first = async (): Promise<CommunityStats> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(statsNotReady()), FIRST_SNAPSHOT_WAIT_MS);
    });
    try {
      await Promise.race([makeFirstCommunityStats(deps.temporal, deps.taskQueue), deadline]);
    } catch (error) {
      if (!(error instanceof ApiError))
        deps.logger.warn({ err: error }, 'community statistics: first snapshot failed');
      throw statsNotReady();
    } finally {
      clearTimeout(timer);
    }
    const stats = await current();
    if (!stats) throw statsNotReady();
    return stats;
  };

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
