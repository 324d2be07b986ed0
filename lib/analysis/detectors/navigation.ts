import type { BarrierMoment, EventSignal } from '../signals.ts';

/** The same page reached this often within the window: going round in circles. */
const LOOP_VISITS = 3;
const LOOP_WINDOW_MS = 120_000;
/** A -> B -> A with the return this soon after arriving on B: B was not what the link promised. */
const BACKTRACK_MS = 10_000;
/** Back-tracks this close to each other are one episode. */
const BACKTRACK_EPISODE_MS = 60_000;
const SCROLL_REVERSALS = 4;
const SCROLL_WINDOW_MS = 10_000;

/**
 * Navigation loops and back-tracking in one pass over the navigations. A return that is already
 * part of a reported loop on the same page is not counted again as back-tracking.
 */
export function navigationMoments(events: readonly EventSignal[]): BarrierMoment[] {
  const navigations = events.filter((event) => event.type === 'navigation');
  const moments: BarrierMoment[] = [];
  const visits = new Map<string, { times: number[]; head: number }>();
  const loopUntil = new Map<string, number>();
  let episode: { first: EventSignal; page: string; last: number; count: number } | undefined;
  const closeEpisode = () => {
    if (!episode) return;
    moments.push({
      kind: 'back_tracking',
      at: episode.first.at,
      target: episode.page,
      severity: episode.count >= 3 ? 'medium' : 'low',
      evidence:
        episode.count === 1
          ? `the tester went back to \`${episode.page}\` within ${BACKTRACK_MS / 1000} s of leaving it`
          : `the tester went straight back to the previous page ${episode.count} times`,
    });
    episode = undefined;
  };

  navigations.forEach((navigation, i) => {
    const time = navigation.at.getTime();
    const page = navigation.target;
    const seen = visits.get(page) ?? { times: [], head: 0 };
    visits.set(page, seen);
    seen.times.push(time);
    while (time - seen.times[seen.head]! > LOOP_WINDOW_MS) seen.head += 1;
    const inWindow = seen.times.length - seen.head;
    if (inWindow >= LOOP_VISITS && time > (loopUntil.get(page) ?? -Infinity)) {
      loopUntil.set(page, time + LOOP_WINDOW_MS);
      moments.push({
        kind: 'navigation_loop',
        at: new Date(seen.times[seen.head]!),
        target: page,
        severity: 'medium',
        evidence: `\`${page}\` was reached ${inWindow} times within ${LOOP_WINDOW_MS / 1000} s`,
      });
      return;
    }
    const previous = navigations[i - 1];
    const beforeThat = navigations[i - 2];
    const isBacktrack =
      previous &&
      beforeThat &&
      beforeThat.target === page &&
      previous.target !== page &&
      time - previous.at.getTime() <= BACKTRACK_MS &&
      time > (loopUntil.get(page) ?? -Infinity);
    if (!isBacktrack) return;
    if (episode && time - episode.last <= BACKTRACK_EPISODE_MS) {
      episode.count += 1;
      episode.last = time;
      return;
    }
    closeEpisode();
    episode = { first: navigation, page, last: time, count: 1 };
  });
  closeEpisode();
  return moments;
}

/**
 * Scroll hunting: the scroll direction changes 4+ times within 10 s, as when searching a page for
 * something its headings do not point to. Two pointers over the scrolls and a running count of
 * direction changes keep it linear.
 */
export function scrollHuntingMoments(events: readonly EventSignal[]): BarrierMoment[] {
  const scrolls = events.filter((event) => event.type === 'scroll' && event.scrollY != null);
  // reversalsUpTo[i]: direction changes among scrolls 0..i.
  const reversalsUpTo = new Array<number>(scrolls.length).fill(0);
  let direction = 0;
  for (let i = 1; i < scrolls.length; i += 1) {
    const step = Math.sign(scrolls[i]!.scrollY! - scrolls[i - 1]!.scrollY!);
    const reversal = step !== 0 && direction !== 0 && step !== direction ? 1 : 0;
    reversalsUpTo[i] = reversalsUpTo[i - 1]! + reversal;
    if (step !== 0) direction = step;
  }
  const moments: BarrierMoment[] = [];
  let start = 0;
  let end = 0;
  while (start < scrolls.length) {
    const windowEnd = scrolls[start]!.at.getTime() + SCROLL_WINDOW_MS;
    if (end < start) end = start;
    while (end + 1 < scrolls.length && scrolls[end + 1]!.at.getTime() <= windowEnd) end += 1;
    // Changes inside the window only: the first one counted needs two steps within it.
    const reversals = end >= start + 2 ? reversalsUpTo[end]! - reversalsUpTo[start + 1]! : 0;
    if (reversals >= SCROLL_REVERSALS) {
      moments.push({
        kind: 'scroll_hunting',
        at: scrolls[start]!.at,
        target: scrolls[start]!.target,
        severity: 'low',
        evidence: `the scroll direction changed ${reversals} times within ${SCROLL_WINDOW_MS / 1000} s`,
      });
      start = end + 1;
    } else {
      start += 1;
    }
  }
  return moments;
}
