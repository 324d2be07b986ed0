import { z } from 'zod';
import { httpUrl } from '../../lib/validation/http-url.ts';
import { paginationQuery } from '../../lib/validation/pagination.ts';
import { AUDIT_CATEGORIES, SEVERITIES, WCAG_VERSION } from '../../lib/audits.ts';
import { AUDIT_GRADES, AUDIT_JOB_STATUSES } from '../../lib/domain.ts';

export const auditJobIdParams = z.object({ auditJobId: z.uuid() });
export const auditIdParams = z.object({ auditId: z.uuid() });

const severity = z.enum(SEVERITIES);

const issueCounts = z.object({
  critical: z.number(),
  serious: z.number(),
  moderate: z.number(),
  minor: z.number(),
});

const grade = z.enum(AUDIT_GRADES);

export const auditIssue = z.object({
  issueId: z.string(),
  category: z.enum(AUDIT_CATEGORIES),
  severity,
  element: z.string().describe('CSS selector of the offending element'),
  description: z.string(),
  wcagCriteria: z
    .array(z.string())
    .describe('WCAG 2.2 success criteria, e.g. ["1.4.3"]; empty for best practices'),
});

const wcagVersion = z
  .literal(WCAG_VERSION)
  .describe(
    'The WCAG version checked: its level A and AA criteria make the score, level AAA issues are listed',
  );

export const instantAuditResponse = z.object({
  auditId: z.uuid(),
  url: z.string(),
  score: z.number().int().min(0).max(100),
  grade,
  topIssues: z.array(auditIssue).describe('The most severe issues first, at most 50'),
  issues: z
    .array(auditIssue)
    .describe('Every issue of the page, most severe first: the complete list (topIssues is its first 50)'),
  issueCounts,
  wcagVersion,
  completedAt: z.iso.datetime(),
});

const auditResult = z.object({
  score: z.number().int(),
  grade,
  wcagVersion,
  issueCounts,
  pages: z.array(z.object({ url: z.string(), score: z.number().int(), grade, issueCounts })),
  issues: z
    .array(auditIssue.extend({ pageUrl: z.string().describe('The audited page the issue is on') }))
    .describe(
      'Every issue of every page: page by page in the order audited, most severe first within a page; the complete list (not paginated)',
    ),
  remediation: z.array(
    z.object({
      ruleId: z.string(),
      severity,
      wcagCriteria: z.array(z.string()),
      occurrences: z.number().int(),
      fix: z.string(),
    }),
  ),
});

export const fullAuditJobResponse = z.object({
  auditJobId: z.uuid(),
  url: z.string(),
  crawl: z.boolean(),
  maxPages: z.number().int(),
  status: z.enum(AUDIT_JOB_STATUSES),
  estimatedCompletionMinutes: z.number().int(),
  reportDeliveredTo: z.array(z.string()),
  queuedAt: z.iso.datetime(),
});

export const auditJobStatusResponse = fullAuditJobResponse.extend({
  progress: z.object({ pagesDone: z.number().int(), pagesPlanned: z.number().int() }),
  startedAt: z.iso.datetime().nullable(),
  completedAt: z.iso.datetime().nullable(),
  result: auditResult
    .nullable()
    .describe('The overall score, per-page breakdown and remediation, once complete'),
  error: z.string().nullable(),
});

export const auditListQuery = paginationQuery.extend({
  url: httpUrl()
    .optional()
    .describe("Only the audits of this URL, as it was given (for a URL's score over time)"),
});

export const auditListItem = z.object({
  auditId: z.uuid().describe("An instant audit's auditId or a full audit's auditJobId"),
  kind: z.enum(['instant', 'full']),
  url: z.string(),
  status: z.enum(AUDIT_JOB_STATUSES).describe('An instant audit is complete once listed'),
  score: z.number().int().nullable().describe('Null until a full audit completes'),
  grade: grade.nullable(),
  issueCounts: issueCounts.nullable(),
  requestedAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});
