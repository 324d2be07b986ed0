import { successPageOf } from '../../lib/analysis/task-attribution.ts';
import { taskName } from '../../lib/analysis/task-name.ts';
import type { EndedAttempt, StudyTaskPage } from '../../lib/analysis/task-results.ts';
import type { TaskAttemptChange } from '../../lib/domain.ts';
import type { Tx } from '../doors.ts';

/** An attempt's change as the session workflow records it (workflows/task-progress.ts). */
export interface TaskAttemptRecord extends TaskAttemptChange {
  readonly sessionId: string;
}

/**
 * Records an attempt: its start, or its end. Answers false when the session's study has no task of
 * that order. A repeat (a retried activity) changes nothing: an ended attempt stays as it ended.
 */
export async function saveTaskAttempt(tx: Tx, record: TaskAttemptRecord): Promise<boolean> {
  const task = await tx
    .selectFrom('sessions as s')
    .innerJoin('study_tasks as t', 't.study_id', 's.study_id')
    .select(['t.id as taskId', 's.variant'])
    .where('s.id', '=', record.sessionId)
    .where('t.position', '=', record.order)
    .executeTakeFirst();
  if (!task) return false;
  const ended = {
    ended_at: record.endedAt ?? null,
    outcome: record.outcome ?? null,
    active_ms: record.activeMs ?? null,
    ease: record.ease ?? null,
    reason: record.reason ?? null,
  };
  await tx
    .insertInto('task_attempts')
    .values({
      session_id: record.sessionId,
      task_id: task.taskId,
      variant: task.variant,
      started_at: record.startedAt,
      ...ended,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['session_id', 'task_id'])
        .doUpdateSet(ended)
        .where('task_attempts.ended_at', 'is', null),
    )
    .execute();
  return true;
}

/** Each task of the session's study, in order, with the session's attempt at it (if any). */
export function tasksWithAttempts(tx: Tx, sessionId: string) {
  return tx
    .selectFrom('sessions as s')
    .innerJoin('study_tasks as t', 't.study_id', 's.study_id')
    .leftJoin('task_attempts as a', (join) =>
      join.onRef('a.task_id', '=', 't.id').onRef('a.session_id', '=', 's.id'),
    )
    .select([
      't.position',
      't.title',
      't.description',
      'a.started_at',
      'a.ended_at',
      'a.outcome',
      'a.active_ms',
      'a.ease',
      'a.reason',
    ])
    .where('s.id', '=', sessionId)
    .orderBy('t.position')
    .execute();
}

export type TaskWithAttemptRow = Awaited<ReturnType<typeof tasksWithAttempts>>[number];

/** The orders of a study's tasks. */
export async function taskOrdersOf(tx: Tx, studyId: string): Promise<number[]> {
  const rows = await tx
    .selectFrom('study_tasks')
    .select('position')
    .where('study_id', '=', studyId)
    .orderBy('position')
    .execute();
  return rows.map((row) => row.position);
}

/**
 * Every ended attempt of a study's sessions (cancelled sessions left out), with its tester's
 * profile: read through the system door, since the organization does not see testers' profiles.
 */
export async function endedAttemptsOfStudy(tx: Tx, studyId: string): Promise<EndedAttempt[]> {
  const rows = await tx
    .selectFrom('task_attempts as a')
    .innerJoin('sessions as s', 's.id', 'a.session_id')
    .innerJoin('study_tasks as t', 't.id', 'a.task_id')
    .leftJoin('tester_profiles as p', 'p.user_id', 's.tester_id')
    .select([
      't.position',
      's.tester_id',
      'a.variant',
      'a.outcome',
      'a.active_ms',
      'a.ease',
      's.device',
      'p.country',
      'p.assistive_technologies',
      'a.success_page',
      'a.success_reached_at',
    ])
    .where('s.study_id', '=', studyId)
    .where('s.status', '<>', 'cancelled')
    .where('a.outcome', 'is not', null)
    .execute();
  return rows.map((row) => ({
    order: row.position,
    testerId: row.tester_id,
    variant: row.variant,
    outcome: row.outcome!,
    activeMs: row.active_ms ?? 0,
    ease: row.ease,
    device: row.device,
    country: row.country,
    assistiveTechnologies: row.assistive_technologies ?? [],
    successReached: row.success_page === null ? null : row.success_reached_at !== null,
  }));
}

/** A study's tasks in order, each with the page its success criteria name (if any). */
export async function studyTaskPages(tx: Tx, studyId: string): Promise<StudyTaskPage[]> {
  const rows = await tx
    .selectFrom('study_tasks')
    .select(['position', 'title', 'success_criteria'])
    .where('study_id', '=', studyId)
    .orderBy('position')
    .execute();
  return rows.map(taskPageOf);
}

/** A study task row as the results read it: its order, title and the page its criteria name. */
export const taskPageOf = (task: {
  readonly position: number;
  readonly title: string;
  readonly success_criteria: string | null;
}): StudyTaskPage => ({
  order: task.position,
  title: task.title,
  successPage: successPageOf(task.success_criteria),
});

/** The session's ended attempts with their tasks' success criteria, to judge against the pages. */
export function endedAttemptsWithCriteria(tx: Tx, sessionId: string) {
  return tx
    .selectFrom('task_attempts as a')
    .innerJoin('study_tasks as t', 't.id', 'a.task_id')
    .select(['a.id', 't.position', 'a.started_at', 'a.ended_at', 't.success_criteria'])
    .where('a.session_id', '=', sessionId)
    .where('a.ended_at', 'is not', null)
    .execute();
}

/** The session's navigations in time order: when, and to which page. */
export function navigationsOf(tx: Tx, sessionId: string) {
  return tx
    .selectFrom('session_events')
    .select(['occurred_at', 'target_selector'])
    .where('session_id', '=', sessionId)
    .where('event_type', '=', 'navigation')
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
}

/** What the judgement found for one attempt (its page null when the criteria name none). */
export function saveSuccessJudgement(
  tx: Tx,
  attemptId: string,
  judgement: { readonly page: string | null; readonly reachedAt: Date | null },
) {
  return tx
    .updateTable('task_attempts')
    .set({ success_page: judgement.page, success_reached_at: judgement.reachedAt })
    .where('id', '=', attemptId)
    .execute();
}

/** "Task 2: Pay" by task id, for a study's tasks (as the caller may see them). */
export async function taskNamesOf(tx: Tx, studyId: string): Promise<Map<string, string>> {
  const rows = await tx
    .selectFrom('study_tasks')
    .select(['id', 'position', 'title'])
    .where('study_id', '=', studyId)
    .execute();
  return new Map(rows.map((row) => [row.id, taskName({ order: row.position, title: row.title })]));
}
