import { ScheduleOverlapPolicy, type Client, type ScheduleSpec } from '@temporalio/client';
import type { Db } from '../db/connection.ts';
import { asSystem } from '../db/doors.ts';
import { latestCommunityStatsSnapshot } from '../db/repositories/community-stats.ts';
import { COMMUNITY_STATS_REFRESH_MS, COMMUNITY_STATS_REFRESH_OFFSET_MS } from '../lib/community-stats.ts';
import { communityStatsRefreshWorkflow } from '../workflows/community-stats.ts';
import { COMMUNITY_STATS_SCHEDULE_ID } from '../workflows/messages/community-stats.ts';
import { ensureSchedule } from './ensure-schedule.ts';

/** Every 7 days, Mondays at 03:00 UTC; `nextCommunityStatsRefresh` (lib/community-stats.ts) names the same times. */
const COMMUNITY_STATS_SCHEDULE_SPEC: ScheduleSpec = {
  intervals: [{ every: COMMUNITY_STATS_REFRESH_MS, offset: COMMUNITY_STATS_REFRESH_OFFSET_MS }],
};

/**
 * The Schedule that refreshes the community statistics; a run missed while the cluster was down is
 * still taken within a day. When no snapshot exists yet (the service's first start), or the newest
 * is past its `nextRefreshAt` (a run was missed for longer), it is run at once; a run already
 * under way (another worker's start) makes that one skip.
 */
export async function ensureCommunityStatsSchedule(
  client: Client,
  taskQueue: string,
  db: Db,
  options: { readonly scheduleId?: string; readonly paused?: boolean; readonly now?: () => Date } = {},
): Promise<{ readonly triggered: boolean }> {
  const now = options.now ?? (() => new Date());
  const scheduleId = options.scheduleId ?? COMMUNITY_STATS_SCHEDULE_ID;
  await ensureSchedule(client, {
    scheduleId,
    spec: COMMUNITY_STATS_SCHEDULE_SPEC,
    workflowType: communityStatsRefreshWorkflow,
    taskQueue,
    catchupWindow: '1 days',
    ...(options.paused ? { paused: true } : {}),
  });
  const newest = await asSystem(db, latestCommunityStatsSnapshot);
  if (newest && newest.next_refresh_at.getTime() > now().getTime()) return { triggered: false };
  await client.schedule.getHandle(scheduleId).trigger(ScheduleOverlapPolicy.SKIP);
  return { triggered: true };
}
