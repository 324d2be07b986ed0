import type { AuditJobRow } from '../../db/repositories/audits.ts';
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

export function toAuditJobStatus(row: AuditJobRow): z.infer<typeof auditJobStatusResponse> {
  return {
    ...toAuditJob(row),
    progress: { pagesDone: row.pages_done, pagesPlanned: row.pages_planned },
    startedAt: row.started_at?.toISOString() ?? null,
    completedAt: row.completed_at?.toISOString() ?? null,
    result: (row.result as z.infer<typeof auditJobStatusResponse>['result']) ?? null,
    error: row.error,
  };
}
