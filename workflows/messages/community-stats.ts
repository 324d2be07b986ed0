// The community statistics refresh's ids (workflows/community-stats.ts). Dependency-free.

/** The Temporal Schedule that refreshes the statistics every 7 days (workers/community-stats-schedule.ts). */
export const COMMUNITY_STATS_SCHEDULE_ID = 'community-stats-refresh';
/** The run the API starts when asked for statistics before any snapshot exists. */
export const FIRST_COMMUNITY_STATS_WORKFLOW_ID = 'community-stats-first';
