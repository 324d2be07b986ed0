import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { recordCommunityStatsSnapshot } from '../../db/repositories/community-stats.ts';
import { nextCommunityStatsRefresh } from '../../lib/community-stats.ts';

export interface CommunityStatsRefreshed {
  readonly snapshotId: string;
  readonly cachedAt: string;
  readonly nextRefreshAt: string;
}

/** The weekly community statistics (workflows/community-stats.ts). */
export function createCommunityStatsActivities(deps: { readonly db: Db; readonly now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    /** A new snapshot as of now, valid until the Schedule's next run. */
    async refreshCommunityStats(): Promise<CommunityStatsRefreshed> {
      const at = now();
      const snapshot = await asSystem(deps.db, (tx) =>
        recordCommunityStatsSnapshot(tx, at, nextCommunityStatsRefresh(at)),
      );
      return {
        snapshotId: snapshot.id,
        cachedAt: snapshot.cached_at.toISOString(),
        nextRefreshAt: snapshot.next_refresh_at.toISOString(),
      };
    },
  };
}

export type CommunityStatsActivities = ReturnType<typeof createCommunityStatsActivities>;
