import { sql } from 'kysely';
import type { Tx } from '../doors.ts';

// What the AI agents read beyond the session repositories: events with their input length, a
// study's tester reports and the testers' profiles, and the counts Agent 4's gate checks.

/** A session's events in time order, up to `until` when given. */
export function agentEvents(tx: Tx, sessionId: string, until?: Date) {
  let query = tx
    .selectFrom('session_events')
    .select(['event_type', 'target_selector', 'occurred_at', 'scroll_y', 'input_length'])
    .where('session_id', '=', sessionId);
  if (until) query = query.where('occurred_at', '<=', until);
  return query.orderBy('occurred_at').orderBy('id').execute();
}

/** Every tester report of a study with the session's variant. */
export function studyReports(tx: Tx, studyId: string) {
  return tx
    .selectFrom('reports')
    .innerJoin('sessions', 'sessions.id', 'reports.session_id')
    .select([
      'reports.id',
      'reports.session_id',
      'reports.tester_id',
      'reports.overall_score',
      'reports.content',
      'sessions.variant',
    ])
    .where('reports.study_id', '=', studyId)
    .where('sessions.status', '<>', 'cancelled')
    .orderBy('reports.generated_at')
    .orderBy('reports.id')
    .execute();
}

/** The profiles of the given testers (the system door only: businesses do not read profiles). */
export function testerProfiles(tx: Tx, testerIds: readonly string[]) {
  if (!testerIds.length) return Promise.resolve([]);
  return tx
    .selectFrom('tester_profiles')
    .select(['user_id', 'devices', 'access_needs', 'country', 'birth_year'])
    .where('user_id', 'in', [...testerIds])
    .execute();
}

/**
 * A study's tester reports against its confirmed sessions, in one read: how many reports exist,
 * how many confirmed sessions lack theirs, and how many of those are still being generated
 * (their Agent 3 job is queued; a failed job writes no report).
 */
async function reportCounts(tx: Tx, studyId: string) {
  const row = await tx
    .selectFrom('sessions')
    .leftJoin('reports', 'reports.session_id', 'sessions.id')
    .select((eb) => {
      const lacking = [eb('sessions.status', '=', 'confirmed'), eb('reports.id', 'is', null)];
      return [
        eb.fn.count<string>('reports.id').as('reports'),
        eb.fn.count<string>('sessions.id').filterWhere(eb.and(lacking)).as('missing'),
        eb.fn
          .count<string>('sessions.id')
          .filterWhere(
            eb.and([
              ...lacking,
              eb.exists(
                eb
                  .selectFrom('agent_jobs')
                  .select('agent_jobs.id')
                  .whereRef('agent_jobs.session_id', '=', 'sessions.id')
                  .where('agent_jobs.kind', '=', 'agent3')
                  .where('agent_jobs.status', '=', 'queued'),
              ),
            ]),
          )
          .as('generating'),
      ];
    })
    .where('sessions.study_id', '=', studyId)
    .where('sessions.status', '<>', 'cancelled')
    .executeTakeFirstOrThrow();
  return { reports: Number(row.reports), missing: Number(row.missing), generating: Number(row.generating) };
}

/** How many tester reports a study has, and how many confirmed sessions still lack theirs (Agent 4's gate). */
export async function reportGate(tx: Tx, studyId: string): Promise<{ reports: number; waiting: number }> {
  const { reports, missing } = await reportCounts(tx, studyId);
  return { reports, waiting: missing };
}

/** Whether the study runs an A/B test (variants exist). */
export async function hasVariants(tx: Tx, studyId: string): Promise<boolean> {
  const row = await tx
    .selectFrom('study_variants')
    .select('study_id')
    .where('study_id', '=', studyId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Where a completed study's tester reports stand, for its own report (Agent 4): how many exist,
 * and how many confirmed sessions still wait for theirs (their Agent 3 job is queued; a failed job
 * writes no report, so waiting on it would be waiting for ever).
 */
export async function studyReportProgress(
  tx: Tx,
  studyId: string,
): Promise<{ reports: number; waiting: number }> {
  const { reports, generating } = await reportCounts(tx, studyId);
  return { reports, waiting: generating };
}

/**
 * The session's task attempts in time order, each with the study's
 * median time on its task over the other sessions' completed attempts (null below `minAttempts`).
 */
export async function agentTasks(tx: Tx, sessionId: string, minAttempts: number) {
  const { rows } = await sql<{
    task_id: string;
    position: number;
    title: string;
    started_at: Date;
    ended_at: Date | null;
    outcome: 'completed' | 'abandoned' | 'unfinished' | null;
    active_ms: number | null;
    ease: number | null;
    reason: string | null;
    study_median_ms: number | null;
  }>`
    select t.id as task_id, t.position, t.title, a.started_at, a.ended_at, a.outcome, a.active_ms, a.ease, a.reason,
           (select percentile_cont(0.5) within group (order by o.active_ms)
              from task_attempts o join sessions os on os.id = o.session_id
              where o.task_id = a.task_id and o.outcome = 'completed' and o.session_id <> a.session_id
                and os.status <> 'cancelled'
              having count(*) >= ${minAttempts}) as study_median_ms
    from task_attempts a join study_tasks t on t.id = a.task_id
    where a.session_id = ${sessionId}
    order by a.started_at`.execute(tx);
  return rows;
}
