import { proxyActivities } from '@temporalio/workflow';
import type {
  CommunityStatsActivities,
  CommunityStatsRefreshed,
} from '../activities/community/community-stats-activities.ts';

/** The Temporal Schedule that refreshes the statistics every 7 days (workers/community-stats-schedule.ts). */
export const COMMUNITY_STATS_SCHEDULE_ID = 'community-stats-refresh';
/** The run the API starts when asked for statistics before any snapshot exists. */
export const FIRST_COMMUNITY_STATS_WORKFLOW_ID = 'community-stats-first';

const { refreshCommunityStats } = proxyActivities<CommunityStatsActivities>({
  // Aggregates over every session: seconds at a million sessions.
  startToCloseTimeout: '5 minutes',
  retry: { maximumInterval: '5 minutes', maximumAttempts: 10 },
});

/** One refresh: a new snapshot, which the public endpoint serves from then on. */
export function communityStatsRefreshWorkflow(): Promise<CommunityStatsRefreshed> {
  return refreshCommunityStats();
}
