import type { EventSignal, FacialSignal, SessionSignals, VoiceSignal } from '../../lib/analysis/signals.ts';

export interface SyntheticOptions {
  readonly start?: Date;
  readonly minutes: number;
  readonly events: number;
  readonly frames: number;
  readonly voiceSegments: number;
  /** Every n-th task block is a struggle (rage clicks, an error, corrections); 0: a calm session. */
  readonly struggleEvery?: number;
}

/** Events per task block: navigate, fill two fields, scroll, submit. */
const BLOCK = 24;

/**
 * A deterministic synthetic session: task blocks of ordinary interaction (each page new, fields
 * typed into once, the page scrolled down, a submit that navigates), neutral attentive faces and
 * calm speech, spread evenly over the session. With `struggleEvery`, some blocks are struggles.
 */
export function syntheticSession(options: SyntheticOptions): SessionSignals {
  const start = (options.start ?? new Date('2026-03-01T10:00:00Z')).getTime();
  const durationMs = options.minutes * 60_000;
  const step = durationMs / options.events;
  const events: EventSignal[] = [];
  const push = (type: EventSignal['type'], target: string, extra: Partial<EventSignal> = {}) =>
    events.push({ type, target, at: new Date(start + events.length * step), scrollY: null, ...extra });

  for (let block = 0; events.length < options.events; block += 1) {
    const struggle = options.struggleEvery
      ? block % options.struggleEvery === options.struggleEvery - 1
      : false;
    const before = events.length;
    push('navigation', `/task/${block}`);
    push('focus', `#name-${block}`);
    for (let n = 1; n <= 8; n += 1) push('input', `#name-${block}`, { inputLength: n });
    push('focus', `#email-${block}`);
    if (struggle) {
      for (const n of [6, 2, 7, 0, 8]) push('input', `#email-${block}`, { inputLength: n });
      for (let n = 0; n < 4; n += 1) push('click', `#broken-${block}`);
      push('error', `#email-${block}`);
    } else {
      for (let n = 1; n <= 8; n += 1) push('input', `#email-${block}`, { inputLength: n });
      for (let n = 0; n < 2; n += 1) push('scroll', 'window', { scrollY: block * 1_000 + n * 200 });
    }
    while (events.length - before < BLOCK - 1) push('scroll', 'window', { scrollY: block * 1_000 + 500 });
    push('click', `#submit-${block}`);
  }
  events.length = options.events;

  const frameStep = durationMs / options.frames;
  const facial: FacialSignal[] = Array.from({ length: options.frames }, (_, i): FacialSignal => {
    const frown = options.struggleEvery ? i % (options.struggleEvery * 10) < 2 : false;
    return {
      at: new Date(start + i * frameStep),
      faceDetected: true,
      confidences: frown ? { angry: 0.8, neutral: 0.2 } : { neutral: 0.8, happy: 0.2 },
      attention: 0.9,
    };
  });

  const voiceStep = durationMs / options.voiceSegments;
  const voice: VoiceSignal[] = Array.from({ length: options.voiceSegments }, (_, i): VoiceSignal => {
    const annoyed = options.struggleEvery ? i % options.struggleEvery === 0 : false;
    return {
      startedAt: new Date(start + i * voiceStep),
      endedAt: new Date(start + i * voiceStep + Math.min(4_000, voiceStep / 2)),
      transcript: annoyed ? 'why does this not work' : 'now I fill in the next field',
      sentiment: annoyed ? 'negative' : 'neutral',
      sentimentScore: annoyed ? -0.7 : 0.1,
      hesitations: annoyed ? 3 : 0,
      containsPii: false,
      sanitised: false,
    };
  });
  return { events, facial, voice };
}

/** A small calm session: ten minutes of ordinary work, nothing any detector should flag. */
export const calmSession = (): SessionSignals =>
  syntheticSession({ minutes: 10, events: 2_000, frames: 600, voiceSegments: 60 });
