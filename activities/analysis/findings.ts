import { findBarrierMoments } from './barrier-moments.ts';
import {
  raiseSeverity,
  type BarrierMoment,
  type Finding,
  type MomentKind,
  type SessionSignals,
} from './signals.ts';
import { TITLE_FOR, WCAG_FOR } from './wcag.ts';

/** Facial and voice signals this close to an interaction barrier are read as reactions to it. */
export const CORRELATION_WINDOW_MS = 10_000;
/** A criterion met this often in one session is a pattern, not an accident. */
const PATTERN_THRESHOLD = 3;
const AFFECTIVE: ReadonlySet<MomentKind> = new Set([
  'frustration_peak',
  'attention_drop',
  'verbal_frustration',
  'hesitation',
]);

/**
 * Agent 2 on the project's own signal analysis: each interaction barrier becomes a WCAG-mapped
 * finding, raised one severity level per kind of facial or voice reaction around it; reactions
 * that explain no interaction barrier become findings of their own; a criterion that recurs
 * across the session is raised once more as a cross-task pattern.
 */
export function analyseSession(signals: SessionSignals): Finding[] {
  const moments = findBarrierMoments(signals);
  const barriers = moments.filter((moment) => !AFFECTIVE.has(moment.kind));
  const reactions = moments.filter((moment) => AFFECTIVE.has(moment.kind));
  const explained = new Set<BarrierMoment>();

  const drafts = barriers.map((barrier) => {
    const near = reactions.filter(
      (reaction) => Math.abs(reaction.at.getTime() - barrier.at.getTime()) <= CORRELATION_WINDOW_MS,
    );
    near.forEach((reaction) => explained.add(reaction));
    const kinds = [...new Set(near.map((reaction) => reaction.kind))];
    return { moment: barrier, corroboratedBy: kinds, evidence: near.map((r) => r.evidence) };
  });
  for (const reaction of reactions) {
    if (explained.has(reaction)) continue;
    const target = lastTargetBefore(signals, reaction.at);
    drafts.push({ moment: { ...reaction, target }, corroboratedBy: [], evidence: [] });
  }

  const perCriterion = new Map<string, number>();
  for (const draft of drafts) {
    const criterion = WCAG_FOR[draft.moment.kind].criterion;
    perCriterion.set(criterion, (perCriterion.get(criterion) ?? 0) + 1);
  }

  return drafts
    .map(({ moment, corroboratedBy, evidence }) => {
      const wcag = WCAG_FOR[moment.kind];
      const patternCount = perCriterion.get(wcag.criterion)!;
      const steps = Math.min(2, corroboratedBy.length) + (patternCount >= PATTERN_THRESHOLD ? 1 : 0);
      const severity = raiseSeverity(moment.severity, steps);
      const parts = [
        `${TITLE_FOR[moment.kind]}: ${moment.evidence}.`,
        ...(evidence.length ? [`Around it, ${evidence.join('; ')}.`] : []),
        ...(patternCount >= PATTERN_THRESHOLD
          ? [`WCAG ${wcag.criterion} came up ${patternCount} times in this session.`]
          : []),
        `Likely WCAG ${wcag.criterion} ${wcag.name} (Level ${wcag.level}); severity ${severity}.`,
      ];
      return {
        kind: moment.kind,
        at: moment.at,
        target: moment.target,
        severity,
        wcag,
        content: parts.join(' '),
        corroboratedBy,
        patternCount,
      };
    })
    .sort((a, b) => a.at.getTime() - b.at.getTime());
}

function lastTargetBefore(signals: SessionSignals, at: Date): string | null {
  let target: string | null = null;
  let latest = -Infinity;
  for (const event of signals.events) {
    const time = event.at.getTime();
    if (time <= at.getTime() && time > latest) {
      latest = time;
      target = event.target;
    }
  }
  return target;
}
