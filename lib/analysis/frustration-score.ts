import type { FindingSeverity } from '../domain.ts';
import { negativeShare } from './detectors/facial.ts';
import { INTERACTION_KINDS, type BarrierMoment, type InteractionKind } from './signals.ts';
import type { Timeline } from './timeline.ts';

const SEVERITY_WEIGHT: Readonly<Record<FindingSeverity, number>> = {
  low: 0.25,
  medium: 0.5,
  high: 0.75,
  critical: 1,
};
const COMPONENT_WEIGHT = { facial: 0.4, voice: 0.3, behaviour: 0.3 } as const;
const INTERACTION: ReadonlySet<string> = new Set<InteractionKind>(INTERACTION_KINDS);

/**
 * overallFrustrationScore, 0 to 1, a weighted mean of the components the session has data for:
 *
 * - facial (weight 0.4): mean share of negative expressions over frames with a face;
 * - voice (0.3): mean of max(0, -sentimentScore) over analysable segments;
 * - behaviour (0.3): 1 - exp(-r), where r is the severity-weighted count of interaction barriers
 *   (low 0.25, medium 0.5, high 0.75, critical 1) per minute of session; one medium barrier a
 *   minute gives 0.39, two high ones 0.78.
 *
 * A component without data (no frames, no speech, no events) drops out and the weights of the
 * others are rescaled; a session without any signal scores 0. Rounded to three decimals.
 */
export function frustrationScore(timeline: Timeline, moments: readonly BarrierMoment[]): number {
  const parts: { weight: number; value: number }[] = [];
  if (timeline.frames.length) {
    parts.push({ weight: COMPONENT_WEIGHT.facial, value: mean(timeline.frames.map(negativeShare)) });
  }
  if (timeline.speech.length) {
    const value = mean(timeline.speech.map((s) => Math.max(0, -s.sentimentScore)));
    parts.push({ weight: COMPONENT_WEIGHT.voice, value });
  }
  if (timeline.events.length) {
    const minutes = Math.max(1, spanMs(timeline) / 60_000);
    const weighted = moments
      .filter((moment) => INTERACTION.has(moment.kind))
      .reduce((sum, moment) => sum + SEVERITY_WEIGHT[moment.severity], 0);
    parts.push({ weight: COMPONENT_WEIGHT.behaviour, value: 1 - Math.exp(-weighted / minutes) });
  }
  const total = parts.reduce((sum, part) => sum + part.weight, 0);
  if (!total) return 0;
  const score = parts.reduce((sum, part) => sum + part.weight * clamp(part.value), 0) / total;
  return Math.round(score * 1000) / 1000;
}

function spanMs(timeline: Timeline): number {
  return timeline.startedAt && timeline.endedAt
    ? timeline.endedAt.getTime() - timeline.startedAt.getTime()
    : 0;
}

const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const clamp = (value: number) => Math.min(1, Math.max(0, value));
