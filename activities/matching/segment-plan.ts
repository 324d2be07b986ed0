// How a study's places are shared among its segments (one per country; the age range is the
// study's own), a pure function beside the matching activity. Each segment is to hold its share of
// the tester count; one with fewer testers than its share is short and gets a capacity review,
// whose decision fixes what the segment holds (approved: its adjusted count, rejected: none). The
// places a decision leaves over go to the segments nobody reviewed, in the same even shares.
import type { CapacityReviewStatus } from '../../lib/domain.ts';

export interface SegmentInput {
  readonly country: string;
  /** Testers matching could propose there now. */
  readonly eligible: number;
  /** Testers of the segment holding a place (live sessions, pending or accepted proposals). */
  readonly held: number;
  /** The segment's review, when it has one. */
  readonly review?: {
    readonly status: CapacityReviewStatus;
    readonly requestedCount: number;
    readonly adjustedCount: number | null;
  };
}

export interface SegmentPlan {
  readonly country: string;
  /** The testers the segment is to hold. */
  readonly target: number;
  /** Set when the segment is short and has no review yet: the review to create. */
  readonly review?: { readonly requestedCount: number; readonly availableCount: number };
  /** New proposals the segment may get in this run (before the study's overall cap). */
  readonly open: number;
  /** Of those, the places its share still lacks: given before any margin goes elsewhere. */
  readonly guaranteed: number;
}

/** `count` split evenly over `parts`, the first ones taking the remainder. */
export function evenShares(count: number, parts: number): number[] {
  const base = Math.floor(count / parts);
  return Array.from({ length: parts }, (_, index) => base + (index < count % parts ? 1 : 0));
}

/**
 * The segments' targets and the proposals each may get now. `placesFor(target)` adds the
 * over-booking margin; `guaranteed` is the part without it, which the caller fills first. A pending review holds its segment at the count it asked for until the
 * admin decides; a rejected segment gets no new proposal; a short segment still gets every tester
 * it has (they are all needed), while its review decides the rest.
 */
export function planSegments(
  testerCount: number,
  segments: readonly SegmentInput[],
  placesFor: (target: number) => number,
): SegmentPlan[] {
  const decided = (segment: SegmentInput): number | undefined => {
    const review = segment.review;
    if (!review) return undefined;
    if (review.status === 'pending') return review.requestedCount;
    return review.status === 'approved' ? (review.adjustedCount ?? 0) : 0;
  };
  // A decided segment takes its target or the testers it already holds, whichever is more: those
  // stay on the study, so the other segments need not cover their places.
  const fixed = segments.reduce((sum, segment) => {
    const target = decided(segment);
    return target === undefined ? sum : sum + Math.max(target, segment.held);
  }, 0);
  const free = segments.filter((segment) => decided(segment) === undefined);
  const shares = evenShares(Math.max(0, testerCount - fixed), Math.max(1, free.length));
  return segments.map((segment) => {
    const fixedTarget = decided(segment);
    if (fixedTarget !== undefined) {
      const rejected = segment.review?.status === 'rejected';
      return {
        country: segment.country,
        target: fixedTarget,
        open: rejected ? 0 : Math.max(0, placesFor(fixedTarget) - segment.held),
        guaranteed: rejected ? 0 : Math.max(0, fixedTarget - segment.held),
      };
    }
    const target = shares[free.indexOf(segment)]!;
    const available = segment.eligible + segment.held;
    return {
      country: segment.country,
      target,
      ...(available < target ? { review: { requestedCount: target, availableCount: available } } : {}),
      open: Math.max(0, placesFor(target) - segment.held),
      guaranteed: Math.max(0, target - segment.held),
    };
  });
}

/**
 * The proposals to make from each segment's ranked candidates (best first, `open` of them at
 * most), `places` in all: every segment's guaranteed places first, then the margins, best score first.
 */
export function pickAcrossSegments<T extends { readonly score: number }>(
  ranked: readonly { readonly plan: SegmentPlan; readonly candidates: readonly T[] }[],
  places: number,
): T[] {
  const first = ranked.flatMap(({ plan, candidates }) => candidates.slice(0, plan.guaranteed));
  const rest = ranked
    .flatMap(({ plan, candidates }) => candidates.slice(plan.guaranteed))
    .sort((a, b) => b.score - a.score);
  return [...first.sort((a, b) => b.score - a.score), ...rest].slice(0, Math.max(0, places));
}
