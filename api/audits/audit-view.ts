import { publicIssue, type AuditIssue } from '../../lib/audits.ts';
import type { AuditJobRow, AuditPageRow } from '../../db/repositories/audits.ts';
import type { z } from 'zod';
import type { auditJobStatusResponse, fullAuditJobResponse } from './audits.schema.ts';

/** The spec gives full audits 2 to 5 minutes; crawling more pages takes longer. */
export function estimatedMinutes(crawl: boolean, maxPages: number): number {
  return crawl ? Math.min(5, 2 + Math.ceil(maxPages / 10)) : 2;
}

export function toAuditJob(row: AuditJobRow): z.infer<typeof fullAuditJobResponse> {
  return {
    auditJobId: row.id,
    url: row.url,
    crawl: row.crawl,
    maxPages: row.max_pages,
    status: row.status,
    estimatedCompletionMinutes: estimatedMinutes(row.crawl, row.max_pages),
    // Until the report goes out these are the addresses it will go to.
    reportDeliveredTo: row.report_delivered_to ?? row.recipients,
    queuedAt: row.queued_at.toISOString(),
  };
}

type AuditResult = NonNullable<z.infer<typeof auditJobStatusResponse>['result']>;

/** A full audit's status; once complete, its result with every issue of its `pages` (in audit order). */
export function toAuditJobStatus(
  row: AuditJobRow,
  pages: readonly AuditPageRow[],
): z.infer<typeof auditJobStatusResponse> {
  const stored = row.result as Omit<AuditResult, 'issues'> | null;
  return {
    ...toAuditJob(row),
    progress: { pagesDone: row.pages_done, pagesPlanned: row.pages_planned },
    startedAt: row.started_at?.toISOString() ?? null,
    completedAt: row.completed_at?.toISOString() ?? null,
    result: stored && {
      ...stored,
      issues: pages.flatMap((page) =>
        // Each page stores its issues with the fixes of their checks (audit-activities.ts).
        (page.issues as unknown as { issues: AuditIssue[] }).issues.map((issue) => ({
          ...publicIssue(issue),
          pageUrl: page.url,
        })),
      ),
    },
    error: row.error,
  };
}
