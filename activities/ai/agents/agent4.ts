import { z } from 'zod';
import type { FindingSeverity } from '../../../lib/domain.ts';
import {
  aggregateStudy,
  type AggregateFacts,
  type ReportSummary,
  type TesterProfileSummary,
} from '../../../lib/analysis/aggregate.ts';
import { RECOMMENDATION_FOR } from '../../../lib/analysis/recommendations.ts';
import { knownId, words, type AgentAnswer, type WordingRunner } from '../agent-runner.ts';

export interface Agent4Input {
  readonly reports: readonly ReportSummary[];
  readonly profiles: readonly TesterProfileSummary[];
  readonly includeVariantComparison: boolean;
  /** Age bands are counted at this date. */
  readonly referenceDate: Date;
}

/** The study-level report (spec: Agent 4 aggregate result), plus the cross-test analysis. */
export interface AggregateContent {
  readonly sessionCount: number;
  readonly studyScore: number;
  readonly topFindings: {
    findingId: string;
    severity: FindingSeverity;
    title: string;
    affectedSessionCount: number;
    wcag: { criterion: string; level: string } | null;
    affectedFlow: string;
  }[];
  readonly variantComparison: AggregateFacts['variantComparison'];
  readonly recommendations: string[];
  readonly widespreadBarriers: AggregateFacts['widespreadBarriers'];
  readonly profileSpecificBarriers: AggregateFacts['profileSpecificBarriers'];
  readonly stratification: AggregateFacts['stratification'];
  readonly summary: string;
}

const SYSTEM = [
  'You are Agent 4 of a usability and accessibility testing service, comparing the tester reports of one study.',
  'Barriers are already clustered across sessions and counted; stratification by tester profile is computed.',
  'Write a title for each top barrier, recommendations for the team, and a summary naming widespread and profile-specific barriers.',
  'Do not change counts, severities or scores; refer to barriers only by their findingId.',
].join(' ');

const ANSWER_SHAPE =
  '{"summary": string, "topFindings": [{"findingId": string, "title": string (at most 120 characters)}], "recommendations": [string]}';

/** Agent 4: cross-test facts from the reports and profiles, worded by a provider or the local analyst. */
export async function agent4Aggregate(
  word: WordingRunner,
  input: Agent4Input,
): Promise<AgentAnswer<AggregateContent>> {
  const facts = aggregateStudy({
    reports: input.reports,
    profiles: input.profiles,
    includeVariantComparison: input.includeVariantComparison,
    referenceYear: input.referenceDate.getUTCFullYear(),
  });
  const { wording, provider, usedFallback } = await word({
    agent: 'agent4',
    system: SYSTEM,
    answerShape: ANSWER_SHAPE,
    material: {
      sessionCount: facts.sessionCount,
      studyScore: facts.studyScore,
      topFindings: facts.topFindings.map(({ sessionIds: _ids, ...cluster }) => cluster),
      widespreadBarriers: facts.widespreadBarriers,
      profileSpecificBarriers: facts.profileSpecificBarriers,
      variantComparison: facts.variantComparison,
      stratification: facts.stratification,
    },
    schema: z.object({
      summary: words(3000),
      topFindings: z
        .array(
          z.object({
            findingId: knownId(
              facts.topFindings.map((f) => f.findingId),
              'findingId',
            ),
            title: words(120),
          }),
        )
        .default([]),
      recommendations: z.array(words(1000)).max(20).default([]),
    }),
    local: () => ({
      summary: localSummary(facts),
      topFindings: facts.topFindings.map((f) => ({ findingId: f.findingId, title: f.title })),
      recommendations: facts.recommendationCriteria.map((criterion) => RECOMMENDATION_FOR[criterion]!),
    }),
  });

  const titles = new Map(wording.topFindings.map((f) => [f.findingId, f.title]));
  return {
    result: {
      sessionCount: facts.sessionCount,
      studyScore: facts.studyScore,
      topFindings: facts.topFindings.map((f) => ({
        findingId: f.findingId,
        severity: f.severity,
        title: titles.get(f.findingId) ?? f.title,
        affectedSessionCount: f.affectedSessionCount,
        wcag: f.wcag,
        affectedFlow: f.affectedFlow,
      })),
      variantComparison: facts.variantComparison,
      recommendations: wording.recommendations.length
        ? wording.recommendations
        : facts.recommendationCriteria.map((criterion) => RECOMMENDATION_FOR[criterion]!),
      widespreadBarriers: facts.widespreadBarriers,
      profileSpecificBarriers: facts.profileSpecificBarriers,
      stratification: facts.stratification,
      summary: wording.summary,
    },
    provider,
    usedFallback,
  };
}

function localSummary(facts: AggregateFacts): string {
  const title = (id: string) => facts.clusters.find((c) => c.findingId === id)?.title ?? id;
  const parts = [
    `${facts.sessionCount} tester report${facts.sessionCount === 1 ? '' : 's'}, study score ${facts.studyScore}.`,
  ];
  if (facts.widespreadBarriers.length) {
    parts.push(`Widespread: ${facts.widespreadBarriers.map((b) => title(b.findingId)).join('; ')}.`);
  }
  if (facts.profileSpecificBarriers.length) {
    parts.push(
      `Profile-specific: ${facts.profileSpecificBarriers
        .map((b) => `${title(b.findingId)} (${b.dimension} ${b.value})`)
        .join('; ')}.`,
    );
  }
  if (!facts.clusters.length) parts.push('No barriers were confirmed.');
  return parts.join(' ');
}
