// The events a replay of one moment needs: from the last full snapshot of the page at or before
// the moment (with the Meta event that comes before it: the page's address and viewport) up to
// the moment. Chunks are read from the last one holding a full snapshot that began before the
// moment (db/repositories/finding-screenshots.ts); that snapshot may fall after the moment, so a
// caller that gets `no_snapshot` tries again from the snapshot before.

const FULL_SNAPSHOT = 2;
const META = 4;

/** Events a moment's replay reads at most: minutes of a very busy page (4,650 a minute measured). */
export const MAX_MOMENT_EVENTS = 200_000;

interface TimedEvent {
  readonly type: number;
  readonly timestamp: number;
}

function isTimedEvent(value: unknown): value is TimedEvent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as TimedEvent).type === 'number' &&
    typeof (value as TimedEvent).timestamp === 'number'
  );
}

export type MomentEvents =
  | { readonly kind: 'events'; readonly events: readonly unknown[] }
  | { readonly kind: 'no_snapshot' }
  | { readonly kind: 'too_many' };

/**
 * The events from the last full snapshot at or before `at` through `until` (ms since the epoch;
 * `at` itself for a picture, a few seconds later for a replay to watch).
 */
export function eventsForMoment(events: readonly unknown[], at: number, until = at): MomentEvents {
  let start = -1;
  for (const [index, event] of events.entries()) {
    if (!isTimedEvent(event) || event.timestamp > at) continue;
    if (event.type === FULL_SNAPSHOT) start = index;
  }
  if (start < 0) return { kind: 'no_snapshot' };
  const before = events[start - 1];
  if (isTimedEvent(before) && before.type === META) start -= 1;
  const chosen = events.slice(start).filter((event) => isTimedEvent(event) && event.timestamp <= until);
  if (chosen.length > MAX_MOMENT_EVENTS) return { kind: 'too_many' };
  return { kind: 'events', events: chosen };
}
