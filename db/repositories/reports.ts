import type { Insertable, Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { ReportsTable, StudyReportsTable } from '../schema-reports.ts';

export type ReportRow = Selectable<ReportsTable>;

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

/** Stores a study-level report (Agent 4); returns its id. */
export async function insertStudyReport(tx: Tx, report: Insertable<StudyReportsTable>): Promise<string> {
  const row = await tx.insertInto('study_reports').values(report).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** The study-level report an Agent 4 job stored, once it has. */
export function studyReportOfJob(
  tx: Tx,
  agentJobId: string,
): Promise<Selectable<StudyReportsTable> | undefined> {
  return tx.selectFrom('study_reports').selectAll().where('agent_job_id', '=', agentJobId).executeTakeFirst();
}
