import { sql, type Insertable, type Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { AuditJobsTable, AuditPagesTable, AuditsTable } from '../schema-audits.ts';
import type { AuditIssue } from '../../lib/audits.ts';
import type { AuditGrade, AuditJobStatus } from '../../lib/domain.ts';

export type InstantAuditRow = Selectable<AuditsTable>;
export type AuditJobRow = Selectable<AuditJobsTable>;
/** A page as the API and the report read it; its outline is read on its own (listAuditPageOutlines). */
export type AuditPageRow = Omit<Selectable<AuditPagesTable>, 'outline'>;
export type NewInstantAudit = Insertable<AuditsTable>;
export type NewAuditJob = Insertable<AuditJobsTable>;
export type NewAuditPage = Insertable<AuditPagesTable>;

export function insertInstantAudit(tx: Tx, audit: NewInstantAudit): Promise<InstantAuditRow> {
  return tx.insertInto('audits').values(audit).returningAll().executeTakeFirstOrThrow();
}

export function insertAuditJob(tx: Tx, job: NewAuditJob): Promise<AuditJobRow> {
  return tx.insertInto('audit_jobs').values(job).returningAll().executeTakeFirstOrThrow();
}

export function findInstantAudit(tx: Tx, id: string): Promise<InstantAuditRow | undefined> {
  return tx.selectFrom('audits').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findAuditJob(tx: Tx, id: string): Promise<AuditJobRow | undefined> {
  return tx.selectFrom('audit_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

// Kept here for the audit commands that import it; the users repository holds the query.
export { findUserEmail } from './users.ts';

/** queued -> running; a retried activity finds it running already and changes nothing. */
export async function markAuditJobRunning(tx: Tx, id: string, at: Date): Promise<void> {
  await tx
    .updateTable('audit_jobs')
    .set({ status: 'running', started_at: at })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .execute();
}

export async function setAuditProgress(
  tx: Tx,
  id: string,
  pagesDone: number,
  pagesPlanned: number,
): Promise<void> {
  await tx
    .updateTable('audit_jobs')
    .set({ pages_done: pagesDone, pages_planned: Math.max(1, pagesPlanned) })
    .where('id', '=', id)
    .execute();
}

/** Stores a page's result and its screenshots; a retry of the same page replaces the earlier attempt. */
export async function saveAuditPage(
  tx: Tx,
  page: NewAuditPage,
  screenshots: ReadonlyMap<string, Buffer>,
): Promise<void> {
  const stored = await tx
    .insertInto('audit_pages')
    .values(page)
    .onConflict((oc) =>
      oc.columns(['audit_job_id', 'position']).doUpdateSet((eb) => ({
        url: eb.ref('excluded.url'),
        score: eb.ref('excluded.score'),
        grade: eb.ref('excluded.grade'),
        issue_counts: eb.ref('excluded.issue_counts'),
        issues: eb.ref('excluded.issues'),
        outline: eb.ref('excluded.outline'),
        audited_at: eb.ref('excluded.audited_at'),
      })),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx.deleteFrom('audit_screenshots').where('audit_page_id', '=', stored.id).execute();
  if (screenshots.size) {
    await tx
      .insertInto('audit_screenshots')
      .values(
        [...screenshots].map(([issueId, image]) => ({ audit_page_id: stored.id, issue_id: issueId, image })),
      )
      .execute();
  }
}

/** A page's issues judged again with the other pages in view (the checks across a full audit's pages). */
export async function rescoreAuditPage(
  tx: Tx,
  id: string,
  scored: { score: number; grade: AuditGrade; issueCounts: object; issues: object },
): Promise<void> {
  await tx
    .updateTable('audit_pages')
    .set({
      score: scored.score,
      grade: scored.grade,
      issue_counts: JSON.stringify(scored.issueCounts),
      issues: JSON.stringify(scored.issues),
    })
    .where('id', '=', id)
    .execute();
}

/** What a page row stores (activities/audits/audit-activities.ts): its issues with the checks' fixes. */
export const storedPageIssues = (page: AuditPageRow) =>
  page.issues as unknown as { issues: AuditIssue[]; fixes?: Record<string, string> };

/** Every column but the outline; a column added to the table fails this return type until listed. */
export function listAuditPages(tx: Tx, auditJobId: string): Promise<AuditPageRow[]> {
  return tx
    .selectFrom('audit_pages')
    .select([
      'id',
      'audit_job_id',
      'position',
      'url',
      'score',
      'grade',
      'issue_counts',
      'issues',
      'audited_at',
    ])
    .where('audit_job_id', '=', auditJobId)
    .orderBy('position')
    .execute();
}

/** The pages' outlines (the checks across pages read them), by position; pages without one left out. */
export async function listAuditPageOutlines(tx: Tx, auditJobId: string): Promise<Map<number, unknown>> {
  const rows = await tx
    .selectFrom('audit_pages')
    .select(['position', 'outline'])
    .where('audit_job_id', '=', auditJobId)
    .where('outline', 'is not', null)
    .execute();
  return new Map(rows.map((row) => [row.position, row.outline]));
}

/** Screenshots of a job, keyed by page position and issue id. */
export async function listAuditScreenshots(tx: Tx, auditJobId: string): Promise<Map<string, Buffer>> {
  const rows = await tx
    .selectFrom('audit_screenshots as s')
    .innerJoin('audit_pages as p', 'p.id', 's.audit_page_id')
    .select(['p.position', 's.issue_id', 's.image'])
    .where('p.audit_job_id', '=', auditJobId)
    .execute();
  return new Map(rows.map((row) => [`${row.position}:${row.issue_id}`, row.image]));
}

export async function finishAuditJob(
  tx: Tx,
  id: string,
  outcome: {
    status: Extract<AuditJobStatus, 'complete' | 'failed'>;
    result: object | null;
    error: string | null;
    deliveredTo: readonly string[] | null;
    at: Date;
  },
): Promise<void> {
  await tx
    .updateTable('audit_jobs')
    .set({
      status: outcome.status,
      result: outcome.result === null ? null : JSON.stringify(outcome.result),
      error: outcome.error,
      report_delivered_to: outcome.deliveredTo ? [...outcome.deliveredTo] : null,
      completed_at: outcome.at,
    })
    .where('id', '=', id)
    // A job whose report went out stays complete: a late failure (its activity's last retry
    // failing after the commit) must not contradict the mail the recipients hold.
    .where('status', '<>', 'complete')
    .execute();
}

/** One audit of either kind as the list shows it (`listAudits`). */
export interface AuditListRow {
  readonly kind: 'instant' | 'full';
  readonly id: string;
  readonly url: string;
  readonly status: AuditJobStatus;
  readonly score: number | null;
  readonly grade: string | null;
  readonly issue_counts: Record<string, number> | null;
  readonly requested_at: Date;
  readonly completed_at: Date | null;
}

/**
 * The audits the caller may read (RLS: its organization's, or its own), instant and full together,
 * newest request first, only those of `url` when given; with how many there are in all.
 */
export async function listAudits(
  tx: Tx,
  filter: { readonly url?: string | undefined; readonly limit: number; readonly offset: number },
): Promise<{ rows: AuditListRow[]; total: number }> {
  const all = sql`
    select 'instant' as kind, id, url, 'complete' as status, score, grade::text as grade,
           result -> 'issueCounts' as issue_counts, completed_at as requested_at, completed_at
      from audits
    union all
    select 'full', id, url, status::text, (result ->> 'score')::int, result ->> 'grade',
           result -> 'issueCounts', queued_at, completed_at
      from audit_jobs`;
  const where = filter.url === undefined ? sql`true` : sql`url = ${filter.url}`;
  const rows = await sql<AuditListRow>`
    select * from (${all}) audit where ${where}
     order by requested_at desc, id
     limit ${filter.limit} offset ${filter.offset}`.execute(tx);
  const count = await sql<{ total: string }>`
    select count(*) as total from (${all}) audit where ${where}`.execute(tx);
  return { rows: rows.rows, total: Number(count.rows[0]?.total ?? 0) };
}
