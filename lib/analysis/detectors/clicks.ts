import type { BarrierMoment, EventSignal } from '../signals.ts';

// Thresholds, each a pattern a tester would recognise as a struggle.
const RAGE_CLICKS = 3;
const RAGE_GAP_MS = 2_000;
/** A click is answered when navigation, input or a focus change follows this soon. */
export const DEAD_CLICK_WINDOW_MS = 2_000;
/** One unanswered click is common (text, padding); repeated ones on one element are a barrier. */
const DEAD_CLICKS = 2;
const DEAD_CLICK_GAP_MS = 10_000;
const ERROR_BURST_MS = 5_000;

const ANSWERS: ReadonlySet<string> = new Set(['navigation', 'input', 'focus', 'blur']);

interface Burst {
  readonly first: EventSignal;
  last: number;
  count: number;
}

/**
 * The events grouped per element into bursts, each event within `gapMs` of the burst's last one.
 * One pass: a burst is closed when its element starts a new one, the rest at the end.
 */
function burstsPerTarget(events: Iterable<EventSignal>, gapMs: number): Burst[] {
  const closed: Burst[] = [];
  const open = new Map<string, Burst>();
  for (const event of events) {
    const time = event.at.getTime();
    const burst = open.get(event.target);
    if (burst && time - burst.last <= gapMs) {
      burst.count += 1;
      burst.last = time;
      continue;
    }
    if (burst) closed.push(burst);
    open.set(event.target, { first: event, last: time, count: 1 });
  }
  return [...closed, ...open.values()];
}

/** Errors raised by the page; a burst on one element within 5 s is one moment. */
export function errorMoments(events: readonly EventSignal[]): BarrierMoment[] {
  const errors = events.filter((event) => event.type === 'error');
  return burstsPerTarget(errors, ERROR_BURST_MS).map(({ first, last, count }) => {
    const seconds = ((last - first.at.getTime()) / 1000).toFixed(1);
    return {
      kind: 'error',
      at: first.at,
      target: first.target,
      severity: 'high',
      evidence:
        count === 1
          ? `an error was raised at \`${first.target}\``
          : `${count} errors were raised at \`${first.target}\` within ${seconds} s`,
    };
  });
}

/** Rage clicks: 3+ clicks on one element, each within 2 s of the last. Also names the clicks used. */
export function rageClickMoments(events: readonly EventSignal[]): {
  moments: BarrierMoment[];
  clicks: ReadonlySet<EventSignal>;
} {
  const moments: BarrierMoment[] = [];
  const used = new Set<EventSignal>();
  const clicks = events.filter((event) => event.type === 'click');
  let index = 0;
  while (index < clicks.length) {
    const first = clicks[index]!;
    let end = index;
    while (
      end + 1 < clicks.length &&
      clicks[end + 1]!.target === first.target &&
      clicks[end + 1]!.at.getTime() - clicks[end]!.at.getTime() <= RAGE_GAP_MS
    ) {
      end += 1;
    }
    const count = end - index + 1;
    if (count >= RAGE_CLICKS) {
      for (let i = index; i <= end; i += 1) used.add(clicks[i]!);
      const seconds = (clicks[end]!.at.getTime() - first.at.getTime()) / 1000;
      moments.push({
        kind: 'rage_clicks',
        at: first.at,
        target: first.target,
        severity: count >= RAGE_CLICKS * 2 ? 'high' : 'medium',
        evidence: `${count} clicks on \`${first.target}\` within ${seconds.toFixed(1)} s`,
      });
    }
    index = end + 1;
  }
  return { moments, clicks: used };
}

/**
 * Dead clicks: clicks that cause no navigation, input or focus change within 2 s, repeated on one
 * element within 10 s of each other. A click is judged only when the recording goes on past its
 * window (the session did not simply end there), and clicks of a rage burst count as rage clicks.
 */
export function deadClickMoments(
  events: readonly EventSignal[],
  rageClicks: ReadonlySet<EventSignal>,
): BarrierMoment[] {
  // The next answer after each event, found in one backward pass.
  const nextAnswer = new Array<number>(events.length);
  let upcoming = Infinity;
  for (let i = events.length - 1; i >= 0; i -= 1) {
    nextAnswer[i] = upcoming;
    if (ANSWERS.has(events[i]!.type)) upcoming = events[i]!.at.getTime();
  }
  const lastTime = events.at(-1)?.at.getTime() ?? -Infinity;
  const unanswered = events.filter((event, i) => {
    if (event.type !== 'click' || rageClicks.has(event)) return false;
    const windowEnd = event.at.getTime() + DEAD_CLICK_WINDOW_MS;
    return lastTime > windowEnd && nextAnswer[i]! > windowEnd;
  });
  return burstsPerTarget(unanswered, DEAD_CLICK_GAP_MS)
    .filter((run) => run.count >= DEAD_CLICKS)
    .map((run) => ({
      kind: 'dead_clicks',
      at: run.first.at,
      target: run.first.target,
      severity: run.count >= DEAD_CLICKS * 2 ? 'high' : 'medium',
      evidence: `${run.count} clicks on \`${run.first.target}\` caused no navigation, input or focus change`,
    }));
}
