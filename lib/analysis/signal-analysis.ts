import { momentsOf } from './barrier-moments.ts';
import { attentionDrops } from './detectors/facial.ts';
import { frustrationScore } from './frustration-score.ts';
import type { BarrierMoment, SessionSignals } from './signals.ts';
import { buildTimeline, type Timeline, type TimelineOptions } from './timeline.ts';

/** Agent 1's facts: what the signals say up to a moment, before any wording. */
export interface SignalAnalysis {
  readonly timeline: Timeline;
  /** Candidate barrier moments in time order, each with its preliminary severity. */
  readonly moments: readonly BarrierMoment[];
  readonly attentionDropTimestamps: readonly Date[];
  readonly overallFrustrationScore: number;
}

/** The signal-analysis core in one call: timeline, detectors, attention drops and the score. */
export function analyseSignals(signals: SessionSignals, options: TimelineOptions = {}): SignalAnalysis {
  const timeline = buildTimeline(signals, options);
  const moments = momentsOf(timeline);
  return {
    timeline,
    moments,
    attentionDropTimestamps: attentionDrops(timeline.frames).map((run) => run[0]!.at),
    overallFrustrationScore: frustrationScore(timeline, moments),
  };
}
