// A study's figures per task (GET /api/jobs/:id/results): could people do it, how long it took
// those who did, how easy they found it, overall, by variant and by kind of tester.
import type { AssistiveTechnology, Device, TaskOutcome } from '../domain.ts';
import { outcomeDispute } from './task-attribution.ts';
import { completionRate, geometricMeanTime, type Interval } from './task-statistics.ts';

/** One ended attempt, with what is known of its session and tester. */
export interface EndedAttempt {
  readonly order: number;
  readonly testerId: string;
  readonly variant: string | null;
  readonly outcome: TaskOutcome;
  readonly activeMs: number;
  readonly ease: number | null;
  readonly device: Device | null;
  readonly country: string | null;
  readonly assistiveTechnologies: readonly AssistiveTechnology[];
  /**
   * Whether the attempt reached the page its task's success criteria name; null when the criteria
   * name none, or the session has not completed yet (attempts are judged at completion).
   */
  readonly successReached: boolean | null;
}

/**
 * Fewer testers than this in any group of a split (by variant, assistive technology, device or
 * country): the whole split's figures are withheld. Below five the intervals span most of the
 * scale, and a small group would single out a tester: withholding only that group would not do,
 * since the overall figures less the groups shown give it back.
 */
export const MIN_GROUP_TESTERS = 5;

export interface TaskFigures {
  /** Testers whose attempt ended (completed, abandoned, or unfinished when the session ended). */
  readonly testers: number;
  /** How the attempts ended; null, like every figure below, when withheld. */
  readonly completed: number | null;
  readonly abandoned: number | null;
  readonly unfinished: number | null;
  /** Completed of ended, with the adjusted-Wald 95 % interval. */
  readonly completionRate: Interval | null;
  /** Seconds on task of the completed attempts: geometric mean and 95 % interval. */
  readonly timeOnTaskSeconds: Interval | null;
  /** The Single Ease Question's mean over the attempts that answered it (1-7). */
  readonly meanEase: number | null;
  /** Whether the figures are withheld: a group of the split has fewer than `MIN_GROUP_TESTERS` testers. */
  readonly withheld: boolean;
}

export interface GroupFigures extends TaskFigures {
  readonly group: string;
}

/** A study task as the results read it: its order, title, and the page its success criteria name. */
export interface StudyTaskPage {
  readonly order: number;
  readonly title: string;
  readonly successPage: string | null;
}

/** How the attempts fared against the page the task's success criteria name. */
export interface SuccessPageFigures {
  readonly page: string;
  /** Attempts judged against it (those of completed sessions). */
  readonly judged: number;
  readonly reached: number;
  /** The tester said done, and never reached the page during the attempt. */
  readonly doneWithoutReaching: number;
  /** The tester gave up after reaching the page. */
  readonly gaveUpAfterReaching: number;
}

export interface TaskResults {
  readonly order: number;
  readonly overall: TaskFigures;
  /** Null when the task's success criteria name no page. */
  readonly successPage: SuccessPageFigures | null;
  readonly byVariant: readonly GroupFigures[];
  readonly byAssistiveTechnology: readonly GroupFigures[];
  readonly byDevice: readonly GroupFigures[];
  readonly byCountry: readonly GroupFigures[];
}

/** What a tester without an assistive technology, or a session of an unknown device, is grouped as. */
export const NONE_GROUP = 'none';
export const UNKNOWN_GROUP = 'unknown';

/**
 * The figures of each task, from the ended attempts of the study's sessions; `successPage` is the
 * page the task's success criteria name (lib/analysis/task-attribution.ts), if any.
 */
export function taskResults(
  tasks: readonly { readonly order: number; readonly successPage: string | null }[],
  attempts: readonly EndedAttempt[],
): TaskResults[] {
  return tasks.map(({ order, successPage }) => {
    const ofTask = attempts.filter((attempt) => attempt.order === order);
    return {
      order,
      // The whole study is never withheld: the business sees each session's attempts anyway.
      overall: figures(ofTask),
      successPage: successPage === null ? null : successPageFigures(successPage, ofTask),
      // A study without variants has no split by variant.
      byVariant: grouped(ofTask, (attempt) => (attempt.variant === null ? [] : [attempt.variant])),
      byAssistiveTechnology: grouped(ofTask, (attempt) =>
        attempt.assistiveTechnologies.length ? attempt.assistiveTechnologies : [NONE_GROUP],
      ),
      byDevice: grouped(ofTask, (attempt) => [attempt.device ?? UNKNOWN_GROUP]),
      byCountry: grouped(ofTask, (attempt) => [attempt.country ?? UNKNOWN_GROUP]),
    };
  });
}

function successPageFigures(page: string, attempts: readonly EndedAttempt[]): SuccessPageFigures {
  const judged = attempts.filter((attempt) => attempt.successReached !== null);
  const disputes = judged.map((attempt) => outcomeDispute(attempt.outcome, attempt.successReached));
  return {
    page,
    judged: judged.length,
    reached: judged.filter((attempt) => attempt.successReached).length,
    doneWithoutReaching: disputes.filter((dispute) => dispute === 'done_without_reaching').length,
    gaveUpAfterReaching: disputes.filter((dispute) => dispute === 'gave_up_after_reaching').length,
  };
}

/** A tester with two assistive technologies counts in both groups. */
function grouped(attempts: readonly EndedAttempt[], groupsOf: (attempt: EndedAttempt) => readonly string[]) {
  const groups = new Map<string, EndedAttempt[]>();
  for (const attempt of attempts) {
    for (const group of groupsOf(attempt)) {
      const members = groups.get(group);
      if (members) members.push(attempt);
      else groups.set(group, [attempt]);
    }
  }
  const sorted = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
  const withheld = sorted.some(([, members]) => testersOf(members) < MIN_GROUP_TESTERS);
  return sorted.map(([group, members]): GroupFigures => ({ group, ...figures(members, withheld) }));
}

const testersOf = (attempts: readonly EndedAttempt[]) =>
  new Set(attempts.map((attempt) => attempt.testerId)).size;

function figures(attempts: readonly EndedAttempt[], withheld = false): TaskFigures {
  const testers = testersOf(attempts);
  if (withheld) {
    return {
      testers,
      completed: null,
      abandoned: null,
      unfinished: null,
      completionRate: null,
      timeOnTaskSeconds: null,
      meanEase: null,
      withheld: true,
    };
  }
  const count = (outcome: TaskOutcome) => attempts.filter((attempt) => attempt.outcome === outcome).length;
  const completed = attempts.filter((attempt) => attempt.outcome === 'completed');
  const eases = attempts.map((attempt) => attempt.ease).filter((ease): ease is number => ease !== null);
  // A completed attempt measured at 0 ms (ended as it began) has no time to average in logarithms.
  const times = completed.map((attempt) => attempt.activeMs / 1000).filter((seconds) => seconds > 0);
  return {
    testers,
    completed: completed.length,
    abandoned: count('abandoned'),
    unfinished: count('unfinished'),
    completionRate: attempts.length ? completionRate(completed.length, attempts.length) : null,
    timeOnTaskSeconds: times.length ? geometricMeanTime(times) : null,
    meanEase: eases.length ? eases.reduce((sum, ease) => sum + ease, 0) / eases.length : null,
    withheld: false,
  };
}
