import type { Tx } from '../../db/doors.ts';
import {
  endedAttemptsWithCriteria,
  navigationsOf,
  saveSuccessJudgement,
} from '../../db/repositories/task-attempts.ts';
import { firstArrival, successPageOf } from '../../lib/analysis/task-attribution.ts';

/**
 * Judges each ended attempt of a session against the page its task's success criteria name: run
 * when the session completes, when every navigation of it is stored (the signal routes take none
 * after), whatever order its batches and task reports arrived in. Judging again finds the same.
 */
export async function judgeSuccessPages(tx: Tx, sessionId: string): Promise<void> {
  const attempts = await endedAttemptsWithCriteria(tx, sessionId);
  if (!attempts.length) return;
  const navigations = (await navigationsOf(tx, sessionId)).map((row) => ({
    at: row.occurred_at.getTime(),
    target: row.target_selector,
  }));
  for (const attempt of attempts) {
    const page = successPageOf(attempt.success_criteria);
    const span = {
      order: attempt.position,
      startedAt: attempt.started_at.getTime(),
      endedAt: attempt.ended_at?.getTime() ?? null,
    };
    const reachedAt = page === null ? null : firstArrival(page, span, navigations);
    await saveSuccessJudgement(tx, attempt.id, {
      page,
      reachedAt: reachedAt === null ? null : new Date(reachedAt),
    });
  }
}
