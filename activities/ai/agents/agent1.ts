import { z } from 'zod';
import type { FindingSeverity, SignalKind } from '../../../lib/domain.ts';
import { analyseSignals } from '../../../lib/analysis/signal-analysis.ts';
import { mostSevereFirst, type MomentKind, type SessionSignals } from '../../../lib/analysis/signals.ts';
import { knownId, MATERIAL_ITEMS, words, type AgentAnswer, type WordingRunner } from '../agent-runner.ts';

export interface Agent1Input {
  readonly signals: SessionSignals;
  /** Analyses data up to this time (spec: `snapshotAt`, default now). */
  readonly snapshotAt?: Date;
  /** events, facial, voice; all by default. */
  readonly includeSignals?: readonly SignalKind[];
}

export interface CriticalMoment {
  readonly timestamp: string;
  readonly type: MomentKind;
  readonly severity: FindingSeverity;
  readonly context: string;
}

/** Spec, "Agent job and result records": Agent 1's `insights`. */
export interface Insights {
  readonly overallFrustrationScore: number;
  readonly attentionDropTimestamps: string[];
  readonly criticalMoments: CriticalMoment[];
  readonly summary: string;
}

/** The running list is bounded: the most severe moments, shown in time order. */
export const MAX_CRITICAL_MOMENTS = 50;

const SYSTEM = [
  'You are Agent 1 of a usability and accessibility testing service, watching a live test.',
  'You receive candidate barrier moments already detected in browser events, facial analysis and voice.',
  'Write a short summary for the researcher and, for moments worth it, one sentence of context each.',
  'Do not invent moments, change severities or times; refer to moments only by their momentId.',
].join(' ');

/** Agent 1: the facts from the signal-analysis core, worded by a provider or the local analyst. */
export async function agent1Insights(
  word: WordingRunner,
  input: Agent1Input,
): Promise<AgentAnswer<Insights>> {
  const analysis = analyseSignals(input.signals, {
    ...(input.snapshotAt ? { until: input.snapshotAt } : {}),
    ...(input.includeSignals ? { include: input.includeSignals } : {}),
  });
  const kept = new Set(
    [...analysis.moments]
      .sort((a, b) => mostSevereFirst(a, b) || a.at.getTime() - b.at.getTime())
      .slice(0, MAX_CRITICAL_MOMENTS),
  );
  const moments = analysis.moments
    .filter((moment) => kept.has(moment))
    .map((moment, i) => ({ momentId: `moment-${i + 1}`, ...moment }));
  const facts = {
    overallFrustrationScore: analysis.overallFrustrationScore,
    attentionDropTimestamps: analysis.attentionDropTimestamps.map((at) => at.toISOString()),
  };

  const { wording, provider, usedFallback } = await word({
    agent: 'agent1',
    system: SYSTEM,
    material: {
      ...facts,
      moments: moments.slice(0, MATERIAL_ITEMS).map((m) => ({
        momentId: m.momentId,
        type: m.kind,
        timestamp: m.at.toISOString(),
        severity: m.severity,
        element: m.target,
        evidence: m.evidence,
      })),
    },
    schema: z.object({
      summary: words(2000),
      moments: z
        .array(
          z.object({
            momentId: knownId(
              moments.map((m) => m.momentId),
              'momentId',
            ),
            context: words(500),
          }),
        )
        .max(moments.length)
        .default([]),
    }),
    local: () => ({
      summary: localSummary(moments, facts),
      moments: moments.map((m) => ({ momentId: m.momentId, context: m.evidence })),
    }),
  });

  const contexts = new Map(wording.moments.map((m) => [m.momentId, m.context]));
  return {
    result: {
      ...facts,
      criticalMoments: moments.map((m) => ({
        timestamp: m.at.toISOString(),
        type: m.kind,
        severity: m.severity,
        context: contexts.get(m.momentId) ?? m.evidence,
      })),
      summary: wording.summary,
    },
    provider,
    usedFallback,
  };
}

function localSummary(
  moments: readonly { kind: MomentKind; severity: FindingSeverity; evidence: string }[],
  facts: { overallFrustrationScore: number; attentionDropTimestamps: readonly string[] },
): string {
  if (!moments.length) {
    return `No barrier moments so far; overall frustration ${facts.overallFrustrationScore.toFixed(2)}.`;
  }
  const serious = moments.filter((m) => m.severity === 'high' || m.severity === 'critical').length;
  const worst = [...moments].sort(mostSevereFirst)[0]!;
  return [
    `${moments.length} candidate barrier moment${moments.length === 1 ? '' : 's'} so far, ${serious} of high severity or worse;`,
    `overall frustration ${facts.overallFrustrationScore.toFixed(2)};`,
    `attention dropped ${facts.attentionDropTimestamps.length} time${facts.attentionDropTimestamps.length === 1 ? '' : 's'}.`,
    `Most severe: ${worst.evidence}.`,
  ].join(' ');
}
