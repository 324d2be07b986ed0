import type { BarrierMoment, EventSignal } from '../signals.ts';

/** No interaction for this long between two interactions: the tester is stuck mid-task. */
export const LONG_HESITATION_MS = 60_000;
const VERY_LONG_HESITATION_MS = 180_000;
// Errors and blurs are things that happen to the tester, not things the tester does.
const INTERACTIONS: ReadonlySet<string> = new Set(['click', 'input', 'focus', 'navigation', 'scroll']);

/**
 * Long hesitation: a gap of a minute or more between two interactions. Gaps before the first and
 * after the last interaction are not "mid-task" and are not judged.
 */
export function longHesitationMoments(events: readonly EventSignal[]): BarrierMoment[] {
  const moments: BarrierMoment[] = [];
  let previous: EventSignal | undefined;
  for (const event of events) {
    if (!INTERACTIONS.has(event.type)) continue;
    if (previous) {
      const gap = event.at.getTime() - previous.at.getTime();
      if (gap >= LONG_HESITATION_MS) {
        moments.push({
          kind: 'long_hesitation',
          at: previous.at,
          target: previous.target,
          severity: gap >= VERY_LONG_HESITATION_MS ? 'medium' : 'low',
          evidence: `no interaction for ${Math.round(gap / 1000)} s after \`${previous.target}\``,
        });
      }
    }
    previous = event;
  }
  return moments;
}
