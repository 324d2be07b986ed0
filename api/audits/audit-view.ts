import { publicIssue, WCAG_VERSION, type AuditIssue, type IssueCounts } from '../../lib/audits.ts';
import {
  storedPageIssues,
  type AuditJobRow,
  type AuditListRow,
  type AuditPageRow,
  type InstantAuditRow,
} from '../../db/repositories/audits.ts';
import type { z } from 'zod';
import type {
  auditJobStatusResponse,
  auditListItem,
  fullAuditJobResponse,
  instantAuditResponse,
} from './audits.schema.ts';
import type { FinishedAudit } from './formats/audit-document.ts';

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
      wcagVersion: WCAG_VERSION,
      issues: pages.flatMap((page) =>
        // Each page stores its issues with the fixes of their checks (audit-activities.ts).
        storedPageIssues(page).issues.map((issue) => ({
          ...publicIssue(issue),
          pageUrl: page.url,
        })),
      ),
    },
    error: row.error,
  };
}

/** A completed full audit as the document formats read it (audit-document.ts). */
export function finishedFullAudit(row: AuditJobRow, pages: readonly AuditPageRow[]): FinishedAudit {
  const stored = row.result as { score: number; grade: FinishedAudit['grade'] };
  return {
    kind: 'full',
    id: row.id,
    url: row.url,
    score: stored.score,
    grade: stored.grade,
    completedAt: row.completed_at!,
    pages: pages.map((page) => ({
      url: page.url,
      issues: storedPageIssues(page).issues,
      fixes: storedPageIssues(page).fixes ?? {},
    })),
  };
}

/** Where an instant audit's result is read again, in any format (`?format=`). */
export const instantAuditPath = (auditId: string) => `/api/audits/instant/${auditId}`;

/** At most this many issues are listed in an instant result's `topIssues`; `issues` holds them all. */
const TOP_ISSUES = 50;

/** What an instant audit's row stores (commands/audits/audit-commands.ts). */
const instantResult = (row: InstantAuditRow) =>
  row.result as unknown as { issueCounts: IssueCounts; issues: AuditIssue[]; finalUrl: string };

export function toInstantAudit(row: InstantAuditRow): z.infer<typeof instantAuditResponse> {
  const { issueCounts, issues } = instantResult(row);
  const shown = issues.map(publicIssue);
  return {
    auditId: row.id,
    url: row.url,
    score: row.score,
    grade: row.grade,
    topIssues: shown.slice(0, TOP_ISSUES),
    issues: shown,
    issueCounts,
    wcagVersion: WCAG_VERSION,
    completedAt: row.completed_at.toISOString(),
  };
}

/** An instant audit as the document formats read it: one page, at the address asked for. */
export function finishedInstantAudit(row: InstantAuditRow): FinishedAudit {
  return {
    kind: 'instant',
    id: row.id,
    url: row.url,
    score: row.score,
    grade: row.grade,
    completedAt: row.completed_at,
    pages: [{ url: row.url, issues: instantResult(row).issues, fixes: {} }],
  };
}

export function toAuditListItem(row: AuditListRow): z.infer<typeof auditListItem> {
  return {
    auditId: row.id,
    kind: row.kind,
    url: row.url,
    status: row.status,
    score: row.score,
    grade: row.grade as z.infer<typeof auditListItem>['grade'],
    issueCounts: row.issue_counts as z.infer<typeof auditListItem>['issueCounts'],
    requestedAt: row.requested_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}
