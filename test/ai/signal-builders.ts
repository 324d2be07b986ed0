import type {
  EventSignal,
  FacialSignal,
  SessionSignals,
  TaskSignal,
  VoiceSignal,
} from '../../lib/analysis/signals.ts';

// Hand-made signals for unit tests of the analysis core, on a fixed clock.

const base = Date.parse('2026-03-01T10:00:00Z');
export const t = (seconds: number) => new Date(base + seconds * 1000);
export const event = (
  type: EventSignal['type'],
  s: number,
  target: string,
  extra: Partial<EventSignal> = {},
): EventSignal => ({ type, target, at: t(s), scrollY: null, ...extra });
export const frame = (
  s: number,
  confidences: Record<string, number>,
  extra: Partial<FacialSignal> = {},
): FacialSignal => ({ at: t(s), faceDetected: true, confidences, attention: 0.9, ...extra });
export const speech = (
  s: number,
  score: number,
  hesitations = 0,
  extra: Partial<VoiceSignal> = {},
): VoiceSignal => ({
  startedAt: t(s),
  endedAt: t(s + 3),
  transcript: 'this does not work',
  sentiment: score <= -0.3 ? 'negative' : score >= 0.3 ? 'positive' : 'neutral',
  sentimentScore: score,
  hesitations,
  containsPii: false,
  sanitised: false,
  ...extra,
});
export const session = (partial: Partial<SessionSignals>): SessionSignals => ({
  events: [],
  facial: [],
  voice: [],
  ...partial,
});

/** A task attempt from `from` to `to` seconds (open when `to` is null), completed unless told. */
export const attempt = (
  order: number,
  from: number,
  to: number | null,
  extra: Partial<TaskSignal> = {},
): TaskSignal => ({
  order,
  title: `Task ${order}`,
  startedAt: t(from),
  endedAt: to === null ? null : t(to),
  outcome: to === null ? null : 'completed',
  activeMs: to === null ? null : (to - from) * 1000,
  ease: null,
  studyMedianMs: null,
  ...extra,
});
