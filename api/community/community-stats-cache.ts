import type { CommunityStats } from './community-stats.schema.ts';

/** How long an API process serves a snapshot before it looks for a newer one. */
export const COMMUNITY_STATS_RELOAD_MS = 60_000;
/** A read of the snapshot that takes longer than this has failed. */
const COMMUNITY_STATS_LOAD_TIMEOUT_MS = 5_000;

export interface CommunityStatsCache {
  /**
   * The snapshot this process holds; undefined when none exists. Waits on the database only
   * while nothing is held (and rejects when that read fails).
   */
  current(): Promise<CommunityStats | undefined>;
  /** Reads the newest snapshot now, after any read under way (which may predate a new snapshot). */
  refresh(): Promise<CommunityStats | undefined>;
}

/**
 * The newest snapshot as this process holds it, read by one request at a time. Once held, it is
 * answered at once; a minute after the last read began, a request starts another in the
 * background (a failed or slow one keeps what is held, and the next is a minute later), so the
 * database sees at most one read a minute from each process.
 */
export function communityStatsCache(deps: {
  readonly load: () => Promise<CommunityStats | undefined>;
  readonly now: () => Date;
  readonly onReloadError: (error: unknown) => void;
}): CommunityStatsCache {
  let held: CommunityStats | undefined;
  let attemptedAt = Number.NEGATIVE_INFINITY;
  let loading: Promise<CommunityStats | undefined> | undefined;

  const loadWithin = async (): Promise<CommunityStats | undefined> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`reading the snapshot took over ${COMMUNITY_STATS_LOAD_TIMEOUT_MS} ms`)),
        COMMUNITY_STATS_LOAD_TIMEOUT_MS,
      );
    });
    try {
      return await Promise.race([deps.load(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
  const reload = (): Promise<CommunityStats | undefined> => {
    if (loading) return loading;
    attemptedAt = deps.now().getTime();
    loading = loadWithin()
      .then((stats) => {
        held = stats ?? held;
        return held;
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  };

  return {
    async current() {
      if (!held) return reload();
      if (deps.now().getTime() - attemptedAt >= COMMUNITY_STATS_RELOAD_MS) reload().catch(deps.onReloadError);
      return held;
    },
    async refresh() {
      await loading?.catch(() => undefined);
      return reload();
    },
  };
}
