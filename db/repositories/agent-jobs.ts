import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { AgentJobsTable } from '../schema-sessions.ts';
import type { AgentKind } from '../../lib/domain.ts';

export type AgentJobRow = Selectable<AgentJobsTable>;

export function insertAgentJob(tx: Tx, job: Insertable<AgentJobsTable>): Promise<AgentJobRow> {
  return tx.insertInto('agent_jobs').values(job).returningAll().executeTakeFirstOrThrow();
}

/** Inserts the job unless one with its id exists, so a retried activity queues it once. */
export async function insertAgentJobOnce(tx: Tx, job: Insertable<AgentJobsTable>): Promise<void> {
  await tx
    .insertInto('agent_jobs')
    .values(job)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export function findAgentJob(tx: Tx, id: string): Promise<AgentJobRow | undefined> {
  return tx.selectFrom('agent_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The job, locked until the transaction ends: whoever holds it decides whether it completes. */
export function lockAgentJob(tx: Tx, id: string): Promise<AgentJobRow | undefined> {
  return tx.selectFrom('agent_jobs').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updateAgentJobRow(
  tx: Tx,
  id: string,
  change: Updateable<AgentJobsTable>,
): Promise<void> {
  await tx.updateTable('agent_jobs').set(change).where('id', '=', id).execute();
}

/** A session's latest job of a kind (Agent 3's report job for POST /api/reports). */
export function latestAgentJob(tx: Tx, sessionId: string, kind: AgentKind): Promise<AgentJobRow | undefined> {
  return tx
    .selectFrom('agent_jobs')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('kind', '=', kind)
    .orderBy('queued_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A study's latest job of a kind (Agent 4 is per study). */
export function latestStudyAgentJob(
  tx: Tx,
  studyId: string,
  kind: AgentKind,
): Promise<AgentJobRow | undefined> {
  return tx
    .selectFrom('agent_jobs')
    .selectAll()
    .where('study_id', '=', studyId)
    .where('kind', '=', kind)
    .orderBy('queued_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A session's latest completed job of a kind: Agent 1's insights for GET /api/sessions/:id. */
export function latestCompleteAgentJob(
  tx: Tx,
  sessionId: string,
  kind: AgentKind,
): Promise<AgentJobRow | undefined> {
  return tx
    .selectFrom('agent_jobs')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('kind', '=', kind)
    .where('status', '=', 'complete')
    .orderBy('completed_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Jobs the API queued (Agents 1 and 4) that are still queued since before `before` and have no
 * live item in the AI retry queue (those are the schedule's to finish): their workflow may never
 * have started, because the start failed after the job was committed.
 */
export function strandedApiJobs(
  tx: Tx,
  options: { before: Date; limit: number },
): Promise<{ id: string; kind: AgentKind }[]> {
  return tx
    .selectFrom('agent_jobs')
    .select(['agent_jobs.id', 'agent_jobs.kind'])
    .where('agent_jobs.kind', 'in', ['agent1', 'agent4'])
    .where('agent_jobs.status', '=', 'queued')
    .where('agent_jobs.queued_at', '<=', options.before)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('queued_ai_work')
            .select('queued_ai_work.id')
            .whereRef('queued_ai_work.agent_job_id', '=', 'agent_jobs.id')
            .where('queued_ai_work.status', 'in', ['queued', 'processing']),
        ),
      ),
    )
    .orderBy('agent_jobs.queued_at')
    .limit(options.limit)
    .execute();
}

/** A completed agent job (Agent 3 or 4) with its study, for the "report ready" email. */
export async function completedReportJob(
  tx: Tx,
  agentJobId: string,
): Promise<{ kind: string; study_id: string; study_title: string; report_id: string | null } | undefined> {
  const { rows } = await sql<{
    kind: string;
    study_id: string;
    study_title: string;
    report_id: string | null;
  }>`
    select j.kind, j.study_id, s.title as study_title,
      (select r.id from reports r where r.agent_job_id = j.id limit 1) as report_id
    from agent_jobs j join studies s on s.id = j.study_id
    where j.id = ${agentJobId} and j.status = 'complete'`.execute(tx);
  return rows[0];
}
