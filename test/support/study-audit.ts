import { asSystem } from '../../db/doors.ts';
import { testDatabase } from './database.ts';

/**
 * A complete audit of the study's prototype, stored as the prototype audit stores it (one page, one
 * critical issue under 1.1.1, score 88, grade B), requested by the study's creator: for tests
 * that read the study's audit without running one.
 */
export function seedStudyAudit(studyId: string): Promise<string> {
  const issueCounts = { critical: 1, serious: 0, moderate: 0, minor: 0 };
  return asSystem(testDatabase(), async (tx) => {
    const study = await tx
      .selectFrom('studies')
      .select(['organization_id', 'created_by', 'prototype_url'])
      .where('id', '=', studyId)
      .executeTakeFirstOrThrow();
    const job = await tx
      .insertInto('audit_jobs')
      .values({
        study_id: studyId,
        organization_id: study.organization_id,
        requested_by: study.created_by!,
        url: study.prototype_url,
        crawl: true,
        max_pages: 5,
        viewport_width: 1280,
        viewport_height: 800,
        recipients: ['owner@example.com'],
        status: 'complete',
        pages_done: 1,
        result: JSON.stringify({ score: 88, grade: 'B', issueCounts }),
        completed_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('audit_pages')
      .values({
        audit_job_id: job.id,
        position: 1,
        url: study.prototype_url,
        score: 88,
        grade: 'B',
        issue_counts: JSON.stringify(issueCounts),
        issues: JSON.stringify({
          issues: [
            {
              issueId: 'image-alt-0123456789',
              ruleId: 'image-alt',
              category: 'images',
              severity: 'critical',
              element: 'img',
              description: 'Images must have alternative text',
              wcagCriteria: ['1.1.1'],
            },
          ],
        }),
      })
      .execute();
    return job.id;
  });
}
