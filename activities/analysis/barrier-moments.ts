import type { BarrierMoment, EventSignal, FacialSignal, SessionSignals, VoiceSignal } from './signals.ts';

// Thresholds of the heuristics below; each names what a tester would recognise as a struggle.
const RAGE_CLICKS = 3;
const RAGE_WINDOW_MS = 2_000;
const FIELD_REFOCUS = 3;
const NAVIGATION_LOOP = 3;
const NAVIGATION_WINDOW_MS = 15_000;
const SCROLL_REVERSALS = 4;
const SCROLL_WINDOW_MS = 10_000;
const NEGATIVE_EMOTIONS = ['angry', 'anger', 'disgust', 'fear', 'sad', 'sadness', 'confused', 'contempt'];
const FRUSTRATION_LEVEL = 0.6;
const LOW_ATTENTION = 0.3;
const SUSTAINED_FRAMES = 2;
const NEGATIVE_SPEECH = -0.5;
const HESITATIONS = 3;

/**
 * Candidate barrier moments from a session's stored signals, in time order. Frames without a
 * detected face and voice segments flagged as PII and not yet sanitised are left out.
 */
export function findBarrierMoments(signals: SessionSignals): BarrierMoment[] {
  const events = [...signals.events].sort((a, b) => a.at.getTime() - b.at.getTime());
  const frames = signals.facial
    .filter((frame) => frame.faceDetected)
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const speech = signals.voice.filter(analysable);
  return [
    ...errors(events),
    ...repeatedClicks(events),
    ...fieldStruggles(events),
    ...navigationLoops(events),
    ...scrollHunting(events),
    ...facialMoments(frames),
    ...voiceMoments(speech),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** PII stays out of analysis until a sanitising step has redacted it. */
export function analysable(segment: VoiceSignal): boolean {
  return !segment.containsPii || segment.sanitised;
}

function errors(events: readonly EventSignal[]): BarrierMoment[] {
  return events
    .filter((event) => event.type === 'error')
    .map((event) => ({
      kind: 'error',
      at: event.at,
      target: event.target,
      severity: 'high',
      evidence: `an error was raised at \`${event.target}\``,
    }));
}

function repeatedClicks(events: readonly EventSignal[]): BarrierMoment[] {
  const moments: BarrierMoment[] = [];
  const clicks = events.filter((event) => event.type === 'click');
  let index = 0;
  while (index < clicks.length) {
    const first = clicks[index]!;
    let end = index;
    while (
      end + 1 < clicks.length &&
      clicks[end + 1]!.target === first.target &&
      clicks[end + 1]!.at.getTime() - clicks[end]!.at.getTime() <= RAGE_WINDOW_MS
    ) {
      end += 1;
    }
    const count = end - index + 1;
    if (count >= RAGE_CLICKS) {
      const seconds = (clicks[end]!.at.getTime() - first.at.getTime()) / 1000;
      moments.push({
        kind: 'repeated_clicks',
        at: first.at,
        target: first.target,
        severity: count >= RAGE_CLICKS * 2 ? 'high' : 'medium',
        evidence: `${count} clicks on \`${first.target}\` within ${seconds.toFixed(1)} s`,
      });
    }
    index = end + 1;
  }
  return moments;
}

function fieldStruggles(events: readonly EventSignal[]): BarrierMoment[] {
  const focusesByTarget = new Map<string, EventSignal[]>();
  const inputTargets = new Set(events.filter((e) => e.type === 'input').map((e) => e.target));
  for (const event of events) {
    if (event.type !== 'focus' || !inputTargets.has(event.target)) continue;
    focusesByTarget.set(event.target, [...(focusesByTarget.get(event.target) ?? []), event]);
  }
  return [...focusesByTarget.entries()]
    .filter(([, focuses]) => focuses.length >= FIELD_REFOCUS)
    .map(([target, focuses]) => ({
      kind: 'field_struggle',
      at: focuses[0]!.at,
      target,
      severity: focuses.length >= FIELD_REFOCUS * 2 ? 'high' : 'medium',
      evidence: `the field \`${target}\` was focused ${focuses.length} times before it was left`,
    }));
}

function navigationLoops(events: readonly EventSignal[]): BarrierMoment[] {
  const navigations = events.filter((event) => event.type === 'navigation');
  const moments: BarrierMoment[] = [];
  let index = 0;
  while (index < navigations.length) {
    const first = navigations[index]!;
    const windowEnd = first.at.getTime() + NAVIGATION_WINDOW_MS;
    const inWindow = navigations.slice(index).filter((event) => event.at.getTime() <= windowEnd);
    const revisits = inWindow.length - new Set(inWindow.map((event) => event.target)).size;
    if (inWindow.length >= NAVIGATION_LOOP && revisits > 0) {
      moments.push({
        kind: 'navigation_loop',
        at: first.at,
        target: first.target,
        severity: 'medium',
        evidence: `${inWindow.length} navigations within ${NAVIGATION_WINDOW_MS / 1000} s, ${revisits} back to a page already seen`,
      });
      index += inWindow.length;
    } else {
      index += 1;
    }
  }
  return moments;
}

function scrollHunting(events: readonly EventSignal[]): BarrierMoment[] {
  const scrolls = events.filter((event) => event.type === 'scroll' && event.scrollY !== null);
  const moments: BarrierMoment[] = [];
  let start = 0;
  while (start < scrolls.length) {
    const windowEnd = scrolls[start]!.at.getTime() + SCROLL_WINDOW_MS;
    const window = scrolls.slice(start).filter((event) => event.at.getTime() <= windowEnd);
    const reversals = countReversals(window.map((event) => event.scrollY!));
    if (reversals >= SCROLL_REVERSALS) {
      moments.push({
        kind: 'scroll_hunting',
        at: window[0]!.at,
        target: window[0]!.target,
        severity: 'low',
        evidence: `the scroll direction changed ${reversals} times within ${SCROLL_WINDOW_MS / 1000} s`,
      });
      start += window.length;
    } else {
      start += 1;
    }
  }
  return moments;
}

function countReversals(positions: readonly number[]): number {
  let reversals = 0;
  let direction = 0;
  for (let i = 1; i < positions.length; i += 1) {
    const step = Math.sign(positions[i]! - positions[i - 1]!);
    if (step !== 0 && direction !== 0 && step !== direction) reversals += 1;
    if (step !== 0) direction = step;
  }
  return reversals;
}

export function negativeShare(frame: FacialSignal): number {
  return NEGATIVE_EMOTIONS.reduce((sum, label) => sum + (frame.confidences[label] ?? 0), 0);
}

/** Runs of consecutive frames above a level become one moment, at the run's first frame. */
function facialMoments(frames: readonly FacialSignal[]): BarrierMoment[] {
  return [
    ...runs(frames, (frame) => negativeShare(frame) >= FRUSTRATION_LEVEL).map((run) => {
      const peak = Math.max(...run.map(negativeShare));
      return {
        kind: 'frustration_peak' as const,
        at: run[0]!.at,
        target: null,
        severity: peak >= 0.85 ? ('high' as const) : ('medium' as const),
        evidence: `negative expressions for ${run.length} consecutive frames (peak ${peak.toFixed(2)})`,
      };
    }),
    ...runs(frames, (frame) => frame.attention < LOW_ATTENTION).map((run) => ({
      kind: 'attention_drop' as const,
      at: run[0]!.at,
      target: null,
      severity: 'low' as const,
      evidence: `attention below ${LOW_ATTENTION} for ${run.length} consecutive frames (lowest ${Math.min(...run.map((f) => f.attention)).toFixed(2)})`,
    })),
  ];
}

function runs(frames: readonly FacialSignal[], test: (frame: FacialSignal) => boolean): FacialSignal[][] {
  const found: FacialSignal[][] = [];
  let current: FacialSignal[] = [];
  for (const frame of [...frames, undefined]) {
    if (frame && test(frame)) {
      current.push(frame);
      continue;
    }
    if (current.length >= SUSTAINED_FRAMES) found.push(current);
    current = [];
  }
  return found;
}

function voiceMoments(segments: readonly VoiceSignal[]): BarrierMoment[] {
  const moments: BarrierMoment[] = [];
  for (const segment of segments) {
    const quote =
      segment.transcript.length > 120 ? `${segment.transcript.slice(0, 117)}...` : segment.transcript;
    if (segment.sentiment === 'negative' && segment.sentimentScore <= NEGATIVE_SPEECH) {
      moments.push({
        kind: 'verbal_frustration',
        at: segment.startedAt,
        target: null,
        severity: segment.sentimentScore <= -0.8 ? 'high' : 'medium',
        evidence: `the tester said "${quote}" (sentiment ${segment.sentimentScore.toFixed(2)})`,
      });
    } else if (segment.hesitations >= HESITATIONS) {
      moments.push({
        kind: 'hesitation',
        at: segment.startedAt,
        target: null,
        severity: 'low',
        evidence: `${segment.hesitations} hesitations while saying "${quote}"`,
      });
    }
  }
  return moments;
}
