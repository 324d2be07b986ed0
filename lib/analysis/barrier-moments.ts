import { deadClickMoments, errorMoments, rageClickMoments } from './detectors/clicks.ts';
import { facialMoments } from './detectors/facial.ts';
import {
  fieldStruggleMoments,
  focusCyclingMoments,
  formAbandonmentMoments,
  inputCorrectionMoments,
} from './detectors/forms.ts';
import { navigationMoments, scrollHuntingMoments } from './detectors/navigation.ts';
import { longHesitationMoments } from './detectors/pauses.ts';
import { voiceMoments } from './detectors/voice.ts';
import type { BarrierMoment, SessionSignals } from './signals.ts';
import { buildTimeline, type Timeline, type TimelineOptions } from './timeline.ts';

/**
 * Candidate barrier moments from a session's signals, in time order. Frames without a detected
 * face and voice segments flagged as PII and not yet sanitised are left out (by the timeline).
 */
export function findBarrierMoments(signals: SessionSignals, options: TimelineOptions = {}): BarrierMoment[] {
  return momentsOf(buildTimeline(signals, options));
}

/** Every detector over one timeline; each is a single pass (or a sort-free two-pointer walk). */
export function momentsOf(timeline: Timeline): BarrierMoment[] {
  const { events } = timeline;
  const rage = rageClickMoments(events);
  return [
    ...errorMoments(events),
    ...rage.moments,
    ...deadClickMoments(events, rage.clicks),
    ...fieldStruggleMoments(events),
    ...focusCyclingMoments(events),
    ...formAbandonmentMoments(events),
    ...inputCorrectionMoments(events),
    ...navigationMoments(events),
    ...scrollHuntingMoments(events),
    ...longHesitationMoments(events),
    ...facialMoments(timeline.frames),
    ...voiceMoments(timeline.speech),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
}
