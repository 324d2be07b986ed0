import type { CommunityStats } from './community-stats.schema.ts';

/** How long an API process serves a snapshot before it looks for a newer one. */
export const COMMUNITY_STATS_RELOAD_MS = 60_000;

interface Held {
  readonly stats: CommunityStats;
  readonly loadedAt: number;
}

/**
 * The newest snapshot as this process holds it: read from the database at most once a minute,
 * by one request at a time. A held snapshot older than that is still answered at once while the
 * newer one loads (a failed load keeps the old one), so requests never wait on the database but
 * the first.
 */
export function communityStatsCache(deps: {
  readonly load: () => Promise<CommunityStats | undefined>;
  readonly now: () => Date;
  readonly onReloadError: (error: unknown) => void;
}): () => Promise<CommunityStats | undefined> {
  let held: Held | undefined;
  let loading: Promise<Held | undefined> | undefined;
  const reload = () =>
    (loading ??= deps
      .load()
      .then((stats) => {
        if (stats) held = { stats, loadedAt: deps.now().getTime() };
        return held;
      })
      .finally(() => {
        loading = undefined;
      }));
  return async () => {
    if (!held) return (await reload())?.stats;
    if (deps.now().getTime() - held.loadedAt >= COMMUNITY_STATS_RELOAD_MS) {
      reload().catch(deps.onReloadError);
    }
    return held.stats;
  };
}
