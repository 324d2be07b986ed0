import { proxyActivities } from '@temporalio/workflow';
import type {
  CommunityStatsActivities,
  CommunityStatsRefreshed,
} from '../activities/community/community-stats-activities.ts';

const { refreshCommunityStats } = proxyActivities<CommunityStatsActivities>({
  // Aggregates over every session: seconds at a million sessions.
  startToCloseTimeout: '5 minutes',
  retry: { maximumInterval: '5 minutes', maximumAttempts: 10 },
});

/** One refresh: a new snapshot, which the public endpoint serves from then on. */
export function communityStatsRefreshWorkflow(): Promise<CommunityStatsRefreshed> {
  return refreshCommunityStats();
}
