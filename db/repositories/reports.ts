import type { Insertable, Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { ReportsTable } from '../schema-reports.ts';
import type { AgentJobsTable, AgentKind } from '../schema-sessions.ts';
import type { AgentJobRow } from './agent-jobs.ts';

export type ReportRow = Selectable<ReportsTable>;

export function insertAgentJob(tx: Tx, job: Insertable<AgentJobsTable>): Promise<AgentJobRow> {
  return tx.insertInto('agent_jobs').values(job).returningAll().executeTakeFirstOrThrow();
}

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

/** One report per session: a repeated Agent 3 run replaces the content (the gate trigger re-checks). */
export function upsertReport(tx: Tx, report: Insertable<ReportsTable>): Promise<ReportRow> {
  return tx
    .insertInto('reports')
    .values(report)
    .onConflict((oc) =>
      oc.column('session_id').doUpdateSet((eb) => ({
        content: eb.ref('excluded.content'),
        overall_score: eb.ref('excluded.overall_score'),
        agent_job_id: eb.ref('excluded.agent_job_id'),
        report_format: eb.ref('excluded.report_format'),
        used_fallback: eb.ref('excluded.used_fallback'),
        provider: eb.ref('excluded.provider'),
        generated_at: eb.ref('excluded.generated_at'),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findReport(tx: Tx, id: string): Promise<ReportRow | undefined> {
  return tx.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether Agent 3 has written any tester report of the study (its tone is then fixed). */
export async function studyHasReports(tx: Tx, studyId: string): Promise<boolean> {
  const row = await tx
    .selectFrom('reports')
    .select('id')
    .where('study_id', '=', studyId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export function findReportOfSession(tx: Tx, sessionId: string): Promise<ReportRow | undefined> {
  return tx.selectFrom('reports').selectAll().where('session_id', '=', sessionId).executeTakeFirst();
}
