// Agent 4 per task: each study task's figures (lib/analysis/task-results.ts) beside the barriers
// the testers confirmed in it, each marked widespread within the task, specific to a kind of
// tester, or met by few.
import type { FindingSeverity } from '../domain.ts';
import { isWidespread, type AggregateFacts, type Dimension, type ReportSummary } from './aggregate.ts';
import { taskResults, type EndedAttempt, type StudyTaskPage, type TaskResults } from './task-results.ts';

/** A barrier of one task, as the study report marks it. */
export interface TaskBarrier {
  readonly findingId: string;
  readonly title: string;
  readonly severity: FindingSeverity;
  readonly affectedSessionCount: number;
  /**
   * widespread: met in half or more of the reported sessions that attempted the task (two at least);
   * profile_specific: met mostly by one kind of tester (`profile`); isolated: neither.
   */
  readonly scope: 'widespread' | 'profile_specific' | 'isolated';
  readonly profile: { readonly dimension: Dimension; readonly value: string } | null;
}

/** A task's section: its results (give-ups are `overall.abandoned`) and its barriers. */
export interface AggregateTask extends TaskResults {
  readonly title: string;
  readonly barriers: readonly TaskBarrier[];
}

/**
 * A section per task: its results, and the clusters of confirmed findings made in it (matched by
 * the task's order, never its title, which two tasks may share), the most affected first.
 */
export function aggregateTasks(
  tasks: readonly StudyTaskPage[],
  attempts: readonly EndedAttempt[],
  reports: readonly ReportSummary[],
  facts: AggregateFacts,
): AggregateTask[] {
  const results = taskResults(tasks, attempts);
  const profileOf = new Map(facts.profileSpecificBarriers.map((b) => [b.findingId, b]));
  return tasks.map((task, index) => {
    const figures = results[index]!;
    // The barriers come from the reports, so the share is of the reported sessions whose tester's
    // attempt at the task ended (all reports when no attempt is known: sessions before tasks).
    const attempted = new Set(attempts.filter((a) => a.order === task.order).map((a) => a.testerId));
    const reported = reports.filter((report) => attempted.has(report.testerId)).length || reports.length;
    const barriers = facts.clusters
      .filter((cluster) => cluster.taskOrder === task.order)
      .map((cluster): TaskBarrier => {
        const widespread = isWidespread(cluster.affectedSessionCount, reported);
        const specific = profileOf.get(cluster.findingId);
        return {
          findingId: cluster.findingId,
          title: cluster.title,
          severity: cluster.severity,
          affectedSessionCount: cluster.affectedSessionCount,
          scope: widespread ? 'widespread' : specific ? 'profile_specific' : 'isolated',
          profile: !widespread && specific ? { dimension: specific.dimension, value: specific.value } : null,
        };
      });
    return { ...figures, title: task.title, barriers };
  });
}
