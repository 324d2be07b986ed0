import type { z } from 'zod';
import type { StudyAudit } from '../../commands/studies/study-audit.ts';
import type { studyAuditResponse } from './jobs.schema.ts';

/** A study's audit as GET /api/jobs/:id/audit answers it. */
export function toStudyAudit(studyId: string, { job, pagesAudited, result, comparison }: StudyAudit) {
  return {
    jobId: studyId,
    auditJobId: job.id,
    url: job.url,
    status: job.status,
    score: result?.score ?? null,
    grade: result?.grade ?? null,
    pagesAudited,
    queuedAt: job.queued_at.toISOString(),
    completedAt: job.completed_at?.toISOString() ?? null,
    error: job.error,
    comparison,
  } satisfies z.infer<typeof studyAuditResponse>;
}
