import { z } from 'zod';
import type { FindingSeverity } from '../../../lib/domain.ts';
import {
  aggregateStudy,
  type AggregateFacts,
  type ReportSummary,
  type TesterProfileSummary,
} from '../../../lib/analysis/aggregate.ts';
import { aggregateTasks, type AggregateTask } from '../../../lib/analysis/aggregate-tasks.ts';
import { RECOMMENDATION_FOR } from '../../../lib/analysis/recommendations.ts';
import type { EndedAttempt, StudyTaskPage } from '../../../lib/analysis/task-results.ts';
import { knownId, words, type AgentAnswer, type WordingRunner } from '../agent-runner.ts';

export interface Agent4Input {
  readonly reports: readonly ReportSummary[];
  readonly profiles: readonly TesterProfileSummary[];
  readonly includeVariantComparison: boolean;
  /** Age bands are counted at this date. */
  readonly referenceDate: Date;
  /** The study's tasks and every ended attempt at them: the report's section per task. */
  readonly tasks?: readonly StudyTaskPage[];
  readonly attempts?: readonly EndedAttempt[];
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
  /** A section per study task: its figures by variant and kind of tester, and its barriers. */
  readonly tasks: readonly AggregateTask[];
  readonly summary: string;
}

const SYSTEM = [
  'You are Agent 4 of a usability and accessibility testing service, comparing the tester reports of one study.',
  'Barriers are already clustered across sessions and counted; stratification by tester profile is computed.',
  'Write a title for each top barrier, recommendations for the team, and a summary naming widespread and profile-specific barriers.',
  'Do not change counts, severities or scores; refer to barriers only by their findingId.',
].join(' ');

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
  const tasks = aggregateTasks(input.tasks ?? [], input.attempts ?? [], input.reports, facts);
  const { wording, provider, usedFallback } = await word({
    agent: 'agent4',
    system: SYSTEM,
    material: {
      sessionCount: facts.sessionCount,
      studyScore: facts.studyScore,
      topFindings: facts.topFindings.map(({ sessionIds: _ids, ...cluster }) => cluster),
      widespreadBarriers: facts.widespreadBarriers,
      profileSpecificBarriers: facts.profileSpecificBarriers,
      variantComparison: facts.variantComparison,
      stratification: facts.stratification,
      tasks: tasks.map((task) => ({
        order: task.order,
        title: task.title,
        overall: task.overall,
        barriers: task.barriers.map(({ findingId, scope, profile }) => ({ findingId, scope, profile })),
      })),
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
      summary: localSummary(facts, tasks),
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
      tasks,
      summary: wording.summary,
    },
    provider,
    usedFallback,
  };
}

function localSummary(facts: AggregateFacts, tasks: readonly AggregateTask[]): string {
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
  for (const task of tasks) {
    const { testers, completed, abandoned } = task.overall;
    if (testers) {
      parts.push(
        `Task ${task.order}, ${task.title}: ${completed} of ${testers} completed, ${abandoned} gave up.`,
      );
    }
  }
  if (!facts.clusters.length) parts.push('No barriers were confirmed.');
  return parts.join(' ');
}
