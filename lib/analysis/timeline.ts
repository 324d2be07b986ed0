import { SIGNAL_KINDS, type SignalKind } from '../domain.ts';
import type { EventSignal, FacialSignal, SessionSignals, VoiceSignal } from './signals.ts';

export type TimelineEntry =
  | { readonly source: 'event'; readonly at: Date; readonly event: EventSignal }
  | { readonly source: 'facial'; readonly at: Date; readonly frame: FacialSignal }
  | { readonly source: 'voice'; readonly at: Date; readonly segment: VoiceSignal };

/**
 * A session's signals as the detectors read them: each kind in time order, with what analysis must
 * not see already left out, and all three merged into one timeline.
 */
export interface Timeline {
  readonly events: readonly EventSignal[];
  /** Frames with a detected face only. */
  readonly frames: readonly FacialSignal[];
  /** Voice segments free of PII, or sanitised, only. */
  readonly speech: readonly VoiceSignal[];
  readonly entries: readonly TimelineEntry[];
  readonly startedAt: Date | null;
  readonly endedAt: Date | null;
}

export interface TimelineOptions {
  /** Only signals up to this time (Agent 1's `snapshotAt`). */
  readonly until?: Date;
  /** Only these kinds of signal (Agent 1's `includeSignals`); all by default. */
  readonly include?: readonly SignalKind[];
}

/** PII stays out of analysis until a sanitising step has redacted it. */
export function analysable(segment: VoiceSignal): boolean {
  return !segment.containsPii || segment.sanitised;
}

/**
 * Builds the timeline in linear time when the signals arrive in time order (as the repositories
 * return them); out-of-order input is sorted first.
 */
export function buildTimeline(signals: SessionSignals, options: TimelineOptions = {}): Timeline {
  const include = new Set(options.include ?? SIGNAL_KINDS);
  const until = options.until?.getTime() ?? Infinity;
  const events = include.has('events')
    ? inOrder(
        keep(signals.events, (e) => e.at.getTime() <= until),
        (e) => e.at,
      )
    : [];
  const frames = include.has('facial')
    ? inOrder(
        keep(signals.facial, (f) => f.faceDetected && f.at.getTime() <= until),
        (f) => f.at,
      )
    : [];
  const speech = include.has('voice')
    ? inOrder(
        keep(signals.voice, (v) => analysable(v) && v.startedAt.getTime() <= until),
        (v) => v.startedAt,
      )
    : [];
  const firsts = [events[0]?.at, frames[0]?.at, speech[0]?.startedAt].filter((at) => at !== undefined);
  const lasts = [events.at(-1)?.at, frames.at(-1)?.at, speech.at(-1)?.endedAt].filter(
    (at) => at !== undefined,
  );
  // The merged list is built when first read: the detectors walk the per-kind lists, and a few
  // hundred thousand wrapper objects per analysis would only feed the garbage collector.
  let entries: TimelineEntry[] | undefined;
  return {
    events,
    frames,
    speech,
    get entries() {
      entries ??= merge(
        events.map((event) => ({ source: 'event' as const, at: event.at, event })),
        frames.map((frame) => ({ source: 'facial' as const, at: frame.at, frame })),
        speech.map((segment) => ({ source: 'voice' as const, at: segment.startedAt, segment })),
      );
      return entries;
    },
    startedAt: earliest(firsts),
    endedAt: latest(lasts),
  };
}

const earliest = (times: readonly Date[]): Date | null =>
  times.reduce<Date | null>((min, at) => (min === null || at < min ? at : min), null);
const latest = (times: readonly Date[]): Date | null =>
  times.reduce<Date | null>((max, at) => (max === null || at > max ? at : max), null);

/**
 * The items that pass, without copying a list every item of which passes (the common case: a
 * whole session's events): copies of a few hundred thousand items only feed the garbage collector.
 */
function keep<T>(items: readonly T[], passes: (item: T) => boolean): readonly T[] {
  return items.every(passes) ? items : items.filter(passes);
}

/** In time order; a list already in order (as the repositories return it) is not copied. */
function inOrder<T>(items: readonly T[], time: (item: T) => Date): readonly T[] {
  for (let i = 1; i < items.length; i += 1) {
    if (time(items[i]!).getTime() < time(items[i - 1]!).getTime()) {
      return [...items].sort((a, b) => time(a).getTime() - time(b).getTime());
    }
  }
  return items;
}

/** Three sorted lists into one, stable: at equal times events come before frames before speech. */
function merge(...lists: TimelineEntry[][]): TimelineEntry[] {
  const merged: TimelineEntry[] = [];
  const heads = lists.map(() => 0);
  for (;;) {
    let pick = -1;
    for (let l = 0; l < lists.length; l += 1) {
      const candidate = lists[l]![heads[l]!];
      if (!candidate) continue;
      if (pick === -1 || candidate.at.getTime() < lists[pick]![heads[pick]!]!.at.getTime()) pick = l;
    }
    if (pick === -1) return merged;
    merged.push(lists[pick]![heads[pick]!]!);
    heads[pick]! += 1;
  }
}

/**
 * For each time in `times` (ascending), the last event at or before it, by one walk over both
 * lists: the element and page a tester was on when something happened.
 */
export function lastEventsBefore(
  events: readonly EventSignal[],
  times: readonly Date[],
  accept: (event: EventSignal) => boolean = () => true,
): (EventSignal | null)[] {
  const found: (EventSignal | null)[] = [];
  let index = 0;
  let last: EventSignal | null = null;
  for (const time of times) {
    while (index < events.length && events[index]!.at.getTime() <= time.getTime()) {
      if (accept(events[index]!)) last = events[index]!;
      index += 1;
    }
    found.push(last);
  }
  return found;
}
