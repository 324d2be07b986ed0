import { asUser, type Tx } from '../../db/doors.ts';
import { listAuditPages, storedPageIssues, type AuditJobRow } from '../../db/repositories/audits.ts';
import { studyAuditJob, testerBarriersOfStudy } from '../../db/repositories/study-audits.ts';
import { findStudy } from '../../db/repositories/studies.ts';
import { compareWithAudit, type CriterionComparison } from '../../lib/analysis/audit-comparison.ts';
import type { AuditGrade } from '../../lib/domain.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
import type { CommandContext } from '../context.ts';
import type { Principal } from '../principal.ts';

export interface StudyAudit {
  readonly job: AuditJobRow;
  readonly pagesAudited: number;
  /** The audit's overall score and grade; null until it is complete. */
  readonly result: { readonly score: number; readonly grade: AuditGrade } | null;
  /** Null until the audit is complete: until then there is nothing of the audit's to compare. */
  readonly comparison: CriterionComparison[] | null;
}

/**
 * The audit of a study's prototype beside the barriers its testers met (GET /api/jobs/:id/audit),
 * for those who may read the study (row-level security decides, else 404); 404 too when the
 * study's prototype was not audited (a design tool's link, or not a public address).
 */
export async function studyAudit(
  deps: Pick<CommandContext, 'db'>,
  principal: Principal,
  studyId: string,
): Promise<StudyAudit> {
  const audit = await asUser(deps.db, principal.claims, async (tx) => {
    if (!(await findStudy(tx, studyId))) throw notFound('Study');
    return auditOfStudy(tx, studyId);
  });
  if (!audit) {
    throw new ApiError(
      'not_found',
      "Audit not found: the study's prototype is audited when the study becomes active, if it is a public URL",
    );
  }
  return audit;
}

/** The study's audit and its comparison, read in the caller's transaction; undefined without one. */
export async function auditOfStudy(tx: Tx, studyId: string): Promise<StudyAudit | undefined> {
  const job = await studyAuditJob(tx, studyId);
  if (!job) return undefined;
  const pages = await listAuditPages(tx, job.id);
  if (job.status !== 'complete') return { job, pagesAudited: pages.length, result: null, comparison: null };
  const issues = pages.flatMap((page) =>
    storedPageIssues(page).issues.map((issue) => ({
      criteria: issue.wcagCriteria,
      pageUrl: page.url,
    })),
  );
  const barriers = await testerBarriersOfStudy(tx, studyId);
  // What the full audit stores once complete (activities/audits/audit-activities.ts).
  const { score, grade } = job.result as { score: number; grade: AuditGrade };
  return {
    job,
    pagesAudited: pages.length,
    result: { score, grade },
    comparison: compareWithAudit(barriers, issues),
  };
}
