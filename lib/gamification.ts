// Points, levels and badges (spec, "Gamification"), pure: what one evaluated session pays.

/** Each signal's maximum, from the spec's table. */
export const POINT_CAPS = {
  sessionCompleted: 50,
  businessRating: 30,
  thinkAloudScore: 20,
  completedOnTime: 10,
  streakBonus: 20,
} as const;

export type PointsBreakdown = { [signal in keyof typeof POINT_CAPS]: number };

/** Levels advance every this many points; level 1 starts at 0. */
export const LEVEL_POINTS = 500;
/** The streak bonus is paid from the third consecutive confirmed session on. */
export const STREAK_LENGTH = 3;
/** Business ratings of at least this many stars pay the rating's points. */
export const GOOD_RATING = 4;

/** What is known of one confirmed session when it is evaluated. */
export interface SessionSignals {
  readonly sessionCompleted: boolean;
  /** The organization's rating; null when it has not rated. */
  readonly businessRating: number | null;
  /** 0-1; null when nobody scored the think-aloud. */
  readonly thinkAloudScore: number | null;
  readonly completedOnTime: boolean;
  /** Consecutive confirmed sessions of the tester just before this one. */
  readonly previousStreakCount: number;
}

export function pointsBreakdown(signals: SessionSignals): PointsBreakdown {
  const thinkAloud = signals.thinkAloudScore === null ? 0 : Math.min(1, Math.max(0, signals.thinkAloudScore));
  return {
    sessionCompleted: signals.sessionCompleted ? POINT_CAPS.sessionCompleted : 0,
    businessRating:
      signals.businessRating !== null && signals.businessRating >= GOOD_RATING
        ? POINT_CAPS.businessRating
        : 0,
    thinkAloudScore: Math.round(POINT_CAPS.thinkAloudScore * thinkAloud),
    completedOnTime: signals.completedOnTime ? POINT_CAPS.completedOnTime : 0,
    streakBonus: signals.previousStreakCount + 1 >= STREAK_LENGTH ? POINT_CAPS.streakBonus : 0,
  };
}

export const pointsOf = (breakdown: PointsBreakdown): number =>
  Object.values(breakdown).reduce((sum, points) => sum + points, 0);

export const levelOf = (totalPoints: number): number => Math.floor(totalPoints / LEVEL_POINTS) + 1;

/** The total at which the next level starts. */
export const nextLevelThreshold = (totalPoints: number): number => levelOf(totalPoints) * LEVEL_POINTS;

/**
 * The badges due at `total` points: every threshold reached that the tester does not hold yet (so
 * points from an admin's adjustment are not skipped over), lowest first.
 */
export function badgesDue<T extends { readonly id: string; readonly thresholdPoints: number }>(
  catalogue: readonly T[],
  total: number,
  held: ReadonlySet<string>,
): T[] {
  return catalogue
    .filter((badge) => badge.thresholdPoints <= total && !held.has(badge.id))
    .sort((a, b) => a.thresholdPoints - b.thresholdPoints);
}

/** How many consecutive sessions, newest first, are confirmed before the first that is not. */
export function streakOf(statusesNewestFirst: readonly string[]): number {
  const broken = statusesNewestFirst.findIndex((status) => status !== 'confirmed');
  return broken === -1 ? statusesNewestFirst.length : broken;
}
