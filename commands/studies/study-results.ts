import { asSystem, asUser } from '../../db/doors.ts';
import { findStudy, type StudyRecord } from '../../db/repositories/studies.ts';
import { endedAttemptsOfStudy, taskPageOf } from '../../db/repositories/task-attempts.ts';
import { MIN_GROUP_TESTERS, taskResults } from '../../lib/analysis/task-results.ts';
import { notFound } from '../../lib/errors.ts';
import type { CommandContext } from '../context.ts';
import type { Principal } from '../principal.ts';

/**
 * A study's figures per task, live while it runs (GET /api/jobs/:id/results): for those who may
 * read the study (row-level security decides, else 404). The attempts are then read through the
 * system door, because the figures group testers by their profiles, which the organization does
 * not see; groups too small to keep a tester unnamed are withheld (`MIN_GROUP_TESTERS`).
 */
export async function studyResults(
  deps: Pick<CommandContext, 'db' | 'now'>,
  principal: Principal,
  studyId: string,
) {
  const study = await asUser(deps.db, principal.claims, (tx) => findStudy(tx, studyId));
  if (!study) throw notFound('Study');
  return resultsOfStudy(deps, study);
}

/** The figures of a study the caller has already read as themselves (so may read). */
export async function resultsOfStudy(deps: Pick<CommandContext, 'db' | 'now'>, study: StudyRecord) {
  const attempts = await asSystem(deps.db, (tx) => endedAttemptsOfStudy(tx, study.study.id));
  const results = taskResults(study.tasks.map(taskPageOf), attempts);
  return {
    jobId: study.study.id,
    computedAt: deps.now().toISOString(),
    minimumGroupTesters: MIN_GROUP_TESTERS,
    tasks: study.tasks.map((task, index) => ({ title: task.title, ...results[index]! })),
  };
}
